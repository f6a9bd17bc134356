import { Alert, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DelayedLoader } from '../../../app/DelayedLoader.tsx';
import { useCoupons } from '../hooks/useCoupons.ts';
import { CouponCreateForm } from './CouponCreateForm.tsx';
import { CouponTable } from './CouponTable.tsx';

/**
 * The coupons admins give advertisers: the list and a form to create one. The form is shown once the list is in and
 * `tablesAboveIn` (the tables above it on the page are in): it then stays where the pointer finds it.
 */
export function CouponsSection({ tablesAboveIn }: { tablesAboveIn: boolean }) {
  const { t } = useTranslation();
  const { query, coupons, create } = useCoupons();
  const listIn = coupons !== undefined || query.isError;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="coupons-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="coupons-title">
          {t('adminPayments.couponsTitle')}
        </Title>
        {coupons ? (
          <CouponTable coupons={coupons} />
        ) : query.isError ? (
          <Alert color="red" role="alert">
            {t('common.error')}
          </Alert>
        ) : (
          <DelayedLoader aria-label={t('common.loading')} />
        )}
        <Title order={3} size="h4">
          {t('adminPayments.newCoupon')}
        </Title>
        {tablesAboveIn && listIn ? (
          <CouponCreateForm onCreate={create} />
        ) : (
          <DelayedLoader aria-label={t('common.loading')} />
        )}
      </Stack>
    </Paper>
  );
}
