import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createApiTokenCall, getApiTokensCall, revokeApiTokenCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const API_TOKENS_QUERY_KEY = ['common', 'api-tokens'] as const;

/** The signed-in user's personal API tokens: the list, creating one (its token answered once) and revoking one. */
export function useApiTokens() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: API_TOKENS_QUERY_KEY });
  const query = useQuery({ queryKey: API_TOKENS_QUERY_KEY, queryFn: () => apiPost(getApiTokensCall) });
  const create = useMutation({
    mutationFn: (name: string) => apiPost(createApiTokenCall, { name }),
    onSuccess: refresh,
    onError: (error) => console.error('create-api-token failed', error),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => apiPost(revokeApiTokenCall, { id }),
    onSuccess: refresh,
    onError: (error) => console.error('revoke-api-token failed', error),
  });
  return { query, tokens: query.data?.tokens, create, revoke };
}
