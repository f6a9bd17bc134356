import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  buyWithBillToPayCall,
  buyWithBitcoinCall,
  createCheckoutSessionCall,
  type TPriceBreakdown,
} from '@helium/contracts';
import { apiErrorMessage, apiPost } from '../../../api/client.ts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { breakdownTexts } from '../utils/purchase.ts';

export type CardCurrency = 'eur' | 'usd';

/**
 * The add-credits modal's ways to pay (specification 02, sections 2.2, 7 and 8): by card on the provider's hosted
 * checkout, in Bitcoin, or on an invoice. Bitcoin and invoices are confirmed first, then thanked and the page
 * reloaded. One payment at a time.
 */
export function usePurchasePayments(purchase: {
  campaignExId: number;
  quantity: number;
  quantityText: string;
  price: TPriceBreakdown | null;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { campaignExId, quantity, quantityText, price } = purchase;

  const failed = (call: string, caught: unknown) => {
    console.error(`${call} failed`, caught);
    setError(apiErrorMessage(caught) ?? t('common.error'));
    setPaying(false);
  };

  const payByCard = async (currency: CardCurrency) => {
    setPaying(true);
    setError(null);
    try {
      const session = await apiPost(createCheckoutSessionCall, undefined, { query: { campaignExId, currency } });
      // Stays "paying" while the browser leaves for the checkout.
      window.location.assign(session.url);
    } catch (caught) {
      console.error('create-checkout-session failed', caught);
      window.alert(apiErrorMessage(caught) ?? t('common.error'));
      setPaying(false);
    }
  };

  const payInBitcoin = async () => {
    if (!price) return;
    const texts = breakdownTexts(price, format.locale);
    if (!window.confirm(t('buy.confirmBitcoin', { quantity: quantityText, amount: texts.bitcoinExact }))) return;
    setPaying(true);
    setError(null);
    try {
      await apiPost(buyWithBitcoinCall, {
        campaignExId,
        buyImpressions: quantity,
        price: price.discounted2,
        priceInBitcoin: price.discounted2InBtc,
      });
    } catch (caught) {
      failed('buy-with-bitcoin', caught);
      return;
    }
    window.alert(t('buy.bitcoinReceived'));
    window.location.reload();
  };

  const billToPay = async (currency: CardCurrency) => {
    if (!price) return;
    const texts = breakdownTexts(price, format.locale);
    const amount = currency === 'usd' ? texts.dollars : texts.discounted;
    if (!window.confirm(t('buy.confirmInvoice', { quantity: quantityText, amount }))) return;
    setPaying(true);
    setError(null);
    try {
      await apiPost(buyWithBillToPayCall, { campaignExId, currency });
    } catch (caught) {
      failed('buy-with-bill-to-pay', caught);
      return;
    }
    window.alert(t('buy.invoiceSent'));
    window.location.reload();
  };

  return { paying, error, payByCard, payInBitcoin, billToPay };
}
