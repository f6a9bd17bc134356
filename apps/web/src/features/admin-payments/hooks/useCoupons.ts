import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createCouponCall, getCouponsCall, type TCreateCouponRequest } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';

export const COUPONS_QUERY_KEY = ['admin', 'coupons'] as const;

/** The network's coupons, and creating one (the caller shows the server's refusals). */
export function useCoupons() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: COUPONS_QUERY_KEY, queryFn: () => apiPost(getCouponsCall) });
  const create = async (request: TCreateCouponRequest) => {
    const answer = await apiPost(createCouponCall, request);
    await queryClient.invalidateQueries({ queryKey: COUPONS_QUERY_KEY });
    return answer.coupon;
  };
  return { query, coupons: query.data?.coupons, create };
}
