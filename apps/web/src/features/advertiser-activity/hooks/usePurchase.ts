import { useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { applyCouponCall, getPurchaseCall, updateBuyCall, type TCampaignPurchase } from '@helium/contracts';
import { apiErrorMessage, apiPost } from '../../../api/client.ts';
import { purchaseSlider, shownBreakdown } from '../utils/purchase.ts';
import { CAMPAIGN_QUERY_KEY } from './useCampaign.ts';

export const PURCHASE_QUERY_KEY = ['advertiser', 'purchase'] as const;

/**
 * The add-credits modal's purchase: read when the modal opens, the quantity on the slider (the modal's own while
 * it moves, sent on release: only the answer to the latest release is kept), and the coupon code.
 */
export function usePurchase(campaignExId: number) {
  const queryClient = useQueryClient();
  const queryKey = [...PURCHASE_QUERY_KEY, campaignExId];
  const query = useQuery({
    queryKey,
    queryFn: () => apiPost(getPurchaseCall, { campaignExId }),
    // Read afresh each time the modal opens: prices and rates may have changed.
    gcTime: 0,
  });
  const purchase = query.data;
  const [moving, setMoving] = useState<number | null>(null);
  const [updating, setUpdating] = useState(false);
  const latest = useRef(0);
  const [couponError, setCouponError] = useState<string | null>(null);
  const [couponApplied, setCouponApplied] = useState(false);
  const [applyingCoupon, setApplyingCoupon] = useState(false);

  const slider = purchase ? purchaseSlider(purchase) : null;
  const quantity = moving ?? slider?.value ?? 0;
  const price = purchase ? shownBreakdown(purchase, quantity) : null;

  const keep = (answer: TCampaignPurchase) => queryClient.setQueryData(queryKey, answer);

  /** The slider was released: the server stores the quantity and prices it. */
  const commit = async (value: number) => {
    if (!slider) return;
    const sequence = ++latest.current;
    setMoving(value);
    setUpdating(true);
    try {
      const answer = await apiPost(updateBuyCall, {
        supercampaign: { id: campaignExId, ...(slider.isCpc ? { buy_clicks: value } : { buy_impressions: value }) },
      });
      if (sequence === latest.current) {
        keep(answer);
        setMoving(null);
      }
    } catch (error) {
      // Only logged (section 8); the slider goes back to the quantity the server holds.
      console.error('update-buy failed', error);
      if (sequence === latest.current) setMoving(null);
    } finally {
      if (sequence === latest.current) setUpdating(false);
    }
  };

  const applyCoupon = async (code: string): Promise<boolean> => {
    setCouponError(null);
    setCouponApplied(false);
    setApplyingCoupon(true);
    try {
      const answer = await apiPost(applyCouponCall, { campaignExId, code: code.trim() });
      // The coupon's answer is the latest word: a slider release still in flight is ignored.
      latest.current++;
      setMoving(null);
      setUpdating(false);
      keep(answer);
      setCouponApplied(true);
      // A coupon of free credits adds them at once: the credits bar shows them.
      void queryClient.invalidateQueries({ queryKey: CAMPAIGN_QUERY_KEY });
      return true;
    } catch (error) {
      console.error('apply-coupon failed', error);
      setCouponError(apiErrorMessage(error) ?? '');
      return false;
    } finally {
      setApplyingCoupon(false);
    }
  };

  return {
    query,
    purchase,
    slider,
    quantity,
    price,
    /** The server holds the quantity shown and its price: what a payment would buy. */
    settled: !updating && moving === null,
    move: setMoving,
    commit,
    coupon: { apply: applyCoupon, error: couponError, applied: couponApplied, applying: applyingCoupon },
  };
}
