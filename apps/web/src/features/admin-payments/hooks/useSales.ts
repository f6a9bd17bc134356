import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getSalesCall, updateSaleCall, type SALE_FILTERS, type TAdminSale } from '@helium/contracts';
import { apiErrorMessage, apiPost } from '../../../api/client.ts';

export type SaleFilter = (typeof SALE_FILTERS)[number];
export type SaleAction = 'confirm' | 'cancel';

export const SALES_QUERY_KEY = ['admin', 'sales'] as const;

/** The sales an admin looks at, by state, and confirming or cancelling one. */
export function useSales() {
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<SaleFilter>('toConfirm');
  const query = useQuery({
    queryKey: [...SALES_QUERY_KEY, filter],
    queryFn: () => apiPost(getSalesCall, { state: filter }),
    placeholderData: (previous) => previous,
  });
  const [busyId, setBusyId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (sale: TAdminSale, action: SaleAction) => {
    setBusyId(sale.id);
    setError(null);
    try {
      await apiPost(updateSaleCall, { saleId: sale.id, action });
    } catch (caught) {
      console.error('update-sale failed', caught);
      setError(apiErrorMessage(caught) ?? '');
    } finally {
      await queryClient.invalidateQueries({ queryKey: SALES_QUERY_KEY });
      setBusyId(null);
    }
  };

  return { filter, setFilter, query, sales: query.data?.sales, act, busyId, error };
}
