import { useQuery } from '@tanstack/react-query';
import { getOutstandingInvoicesCall } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { SALES_QUERY_KEY } from './useSales.ts';

/** Under the sales' key: confirming or cancelling a sale reloads what advertisers owe too. */
export const OUTSTANDING_QUERY_KEY = [...SALES_QUERY_KEY, 'outstanding'] as const;

/** What each advertiser owes on unpaid invoices, against its ceiling, overdue invoices marked. */
export function useOutstandingInvoices() {
  const query = useQuery({ queryKey: OUTSTANDING_QUERY_KEY, queryFn: () => apiPost(getOutstandingInvoicesCall) });
  return { query, advertisers: query.data?.advertisers };
}
