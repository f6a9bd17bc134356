import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getMoneyAuditCall, runMoneyAuditCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const MONEY_AUDIT_QUERY_KEY = ['admin', 'money-audit'] as const;

/** The last run of the money audit, and Run now, whose answer becomes the last run shown. */
export function useMoneyAudit() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: MONEY_AUDIT_QUERY_KEY,
    queryFn: () => apiPost(getMoneyAuditCall),
  });
  const run = useMutation({
    mutationFn: () => apiPost(runMoneyAuditCall),
    onSuccess: (last) => queryClient.setQueryData(MONEY_AUDIT_QUERY_KEY, { last }),
    onError: (error) => console.error('run-money-audit failed', error),
  });
  return { query, last: query.data?.last, run };
}
