import { Alert, Group, Loader, Slider, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DelayedLoader } from '../../../app/DelayedLoader.tsx';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { usePurchase } from '../hooks/usePurchase.ts';
import { usePurchasePayments } from '../hooks/usePurchasePayments.ts';
import { canBillToPay } from '../utils/purchase.ts';
import { CouponForm } from './CouponForm.tsx';
import { PayButtons } from './PayButtons.tsx';
import { PurchaseBreakdown } from './PurchaseBreakdown.tsx';

/**
 * What the add-credits modal shows: the quantity slider (priced here while it moves, by the server once released),
 * the breakdown, the coupon and the ways to pay.
 */
export function AddCreditsContent({ campaignExId }: { campaignExId: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const buy = usePurchase(campaignExId);
  const { purchase, slider, price, quantity } = buy;
  const quantityText = slider?.isCpc
    ? t('buy.clicks', { n: format.number(quantity) })
    : t('buy.impressions', { n: format.number(quantity) });
  const payments = usePurchasePayments({ campaignExId, quantity, quantityText, price });

  if (buy.query.isError) {
    return (
      <Alert color="red" role="alert">
        {t('buy.loadFailed')}
      </Alert>
    );
  }
  if (!purchase || !slider || !price) return <DelayedLoader aria-label={t('common.loading')} />;

  const disabled = payments.paying || quantity === 0 || !buy.settled;
  return (
    <Stack gap="md" data-testid="add-credits">
      {purchase.couponStr ? (
        // A coupon held by another purchase awaiting payment: this one is at full price, and the text says why.
        <Alert color={purchase.couponPercentOff > 0 ? 'teal' : 'yellow'} data-testid="coupon-str">
          {purchase.couponStr}
        </Alert>
      ) : null}
      <Stack gap={4}>
        <Group justify="space-between" gap={4}>
          <Text fw={600} id="buy-quantity-label">
            {slider.isCpc ? t('buy.sliderClicks') : t('buy.sliderImpressions')}
          </Text>
          <Text fw={600} data-testid="buy-quantity" aria-live="polite">
            {quantityText}
          </Text>
        </Group>
        <Slider
          min={0}
          max={slider.max}
          step={slider.step}
          value={quantity}
          onChange={buy.move}
          onChangeEnd={(value) => void buy.commit(value)}
          label={(value) => format.number(value)}
          thumbLabel={slider.isCpc ? t('buy.sliderClicks') : t('buy.sliderImpressions')}
          thumbValueText={(value) =>
            slider.isCpc
              ? t('buy.clicks', { n: format.number(value) })
              : t('buy.impressions', { n: format.number(value) })
          }
          disabled={payments.paying}
          data-testid="buy-slider"
          // Room above the track for the value bubble, which would otherwise cover the heading.
          mt={32}
          mb="xs"
        />
      </Stack>
      <PurchaseBreakdown
        price={price}
        canBuyInBtc={purchase.canBuyInBtc}
        pending={!buy.settled}
        cpm={slider.isCpc ? null : purchase.buyCpm}
        cpc={slider.isCpc ? purchase.buyCpc : null}
        vatBp={purchase.vatBp}
        quantity={quantity}
      />
      <CouponForm coupon={buy.coupon} />
      {payments.error ? (
        <Alert color="red" role="alert" data-testid="payment-error">
          {payments.error}
        </Alert>
      ) : null}
      <PayButtons
        disabled={disabled}
        canBuyInBtc={purchase.canBuyInBtc}
        canBillToPay={canBillToPay(purchase, price)}
        invoiceFrom={
          purchase.canBillToPay && !canBillToPay(purchase, price) ? format.euros(purchase.billToPayMinOrder) : null
        }
        onCard={(currency) => void payments.payByCard(currency)}
        onBitcoin={() => void payments.payInBitcoin()}
        onInvoice={(currency) => void payments.billToPay(currency)}
      />
      {payments.paying ? (
        <Group gap="xs" role="status">
          <Loader size="xs" />
          <Text size="sm">{t('buy.paying')}</Text>
        </Group>
      ) : null}
    </Stack>
  );
}
