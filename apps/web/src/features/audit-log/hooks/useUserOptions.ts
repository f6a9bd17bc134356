import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { getUsersCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { ADMIN_USERS_QUERY_KEY } from '../../admin-users/hooks/useAdminUsers.ts';

/** Users matching what is typed in the audit log's user filter, as options (`name <email>`), searched by the server. */
export function useUserOptions() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const query = useQuery({
    queryKey: [...ADMIN_USERS_QUERY_KEY, 'options', debounced],
    queryFn: () => apiPost(getUsersCall, { search: debounced || undefined, pageSize: 20 }),
    placeholderData: (previous) => previous,
  });
  const options = (query.data?.users ?? []).map((user) => ({
    value: String(user.id),
    label: `${user.name} <${user.email}>`,
  }));
  return { search, setSearch, options };
}
