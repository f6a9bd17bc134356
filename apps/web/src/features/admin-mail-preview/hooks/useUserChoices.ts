import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { getUsersCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { ADMIN_USERS_QUERY_KEY } from '../../admin-users/hooks/useAdminUsers.ts';

export interface UserChoice {
  value: string;
  label: string;
}

/**
 * The users an admin may pick, searched on the server by name or e-mail as the admin types (the first page of
 * Users); the user picked stays among the choices whatever is typed next.
 */
export function useUserChoices() {
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<UserChoice | null>(null);
  const typed = chosen && search === chosen.label ? '' : search.trim();
  const [debounced] = useDebouncedValue(typed, 250);
  const query = useQuery({
    queryKey: [...ADMIN_USERS_QUERY_KEY, 'choices', debounced],
    queryFn: () => apiPost(getUsersCall, { search: debounced || undefined, pageSize: 50 }),
    placeholderData: (previous) => previous,
  });
  const found: UserChoice[] = (query.data?.users ?? []).map((user) => ({
    value: String(user.id),
    label: `${user.name} <${user.email}>`,
  }));
  const choices = chosen ? [chosen, ...found.filter((choice) => choice.value !== chosen.value)] : found;
  const choose = (value: string | null) => setChosen(choices.find((choice) => choice.value === value) ?? null);
  return { search, setSearch, choices, chosen, choose, isLoading: query.isLoading };
}
