import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { getUsersCall, TEXT_LIMITS } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const ADMIN_USERS_QUERY_KEY = ['admin', 'users'] as const;

/** The admin's list of users: the search (sent once typing pauses) and the page, searched and paged by the server. */
export function useAdminUsers() {
  const [search, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const query = useQuery({
    queryKey: [...ADMIN_USERS_QUERY_KEY, debounced, page],
    queryFn: () => apiPost(getUsersCall, { search: debounced || undefined, page }),
    placeholderData: (previous) => previous,
    // A search over its limit is said beside the field (AdminUsersPage), not sent cut.
    enabled: debounced.length <= TEXT_LIMITS.search,
  });
  const setSearch = (value: string) => {
    setSearchText(value);
    setPage(1);
  };
  return { search, setSearch, page, setPage, query };
}
