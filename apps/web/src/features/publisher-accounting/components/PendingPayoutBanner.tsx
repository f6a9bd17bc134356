import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAccounting } from '@helium/contracts';

/** The payout asked for and not sent yet: no other can be asked meanwhile. */
export function PendingPayoutBanner({ payout }: { payout: NonNullable<TAccounting['pendingPayout']> }) {
  const { t } = useTranslation();
  return (
    <Alert color="blue" title={t('accounting.pendingTitle')} data-testid="pending-payout">
      {t('accounting.pendingText', {
        amount: payout.amountStr,
        method: t(`payout.methods.${payout.method}`),
        currency: t(`payout.currencies.${payout.currency}`),
        date: payout.createdAtStr,
      })}
    </Alert>
  );
}
