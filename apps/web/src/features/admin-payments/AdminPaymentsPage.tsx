import { Alert, LoadingOverlay, Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { AdminSalesTable } from './components/AdminSalesTable.tsx';
import { CouponsSection } from './components/CouponsSection.tsx';
import { OutstandingInvoices } from './components/OutstandingInvoices.tsx';
import { SalesFilter } from './components/SalesFilter.tsx';
import { useOutstandingInvoices } from './hooks/useOutstandingInvoices.ts';
import { useSales } from './hooks/useSales.ts';

/** Admin: payments to confirm (Bitcoin and invoices), every sale by state, unpaid invoices by advertiser, coupons. */
export function AdminPaymentsPage() {
  const { t } = useTranslation();
  const { filter, setFilter, query, sales, act, busyId, error } = useSales();
  const outstanding = useOutstandingInvoices();
  // The tables above the coupon form, once in, no longer move it: arriving later, one moved it from under a click.
  const tablesAboveIn =
    (sales !== undefined || query.isError) && (outstanding.advertisers !== undefined || outstanding.query.isError);
  return (
    <>
      <PageHeader title={t('nav.payments')} />
      <Stack gap="lg">
        <Paper withBorder p="md" component="section" aria-labelledby="sales-title" pos="relative">
          <LoadingOverlay visible={query.isFetching && query.isPlaceholderData} />
          <Stack gap="md">
            <Title order={2} size="h3" id="sales-title">
              {t('adminPayments.salesTitle')}
            </Title>
            <SalesFilter value={filter} onChange={setFilter} />
            {error !== null ? (
              <Alert color="red" role="alert" data-testid="admin-sales-error">
                {error || t('common.error')}
              </Alert>
            ) : null}
            {sales ? (
              <AdminSalesTable sales={sales} busyId={busyId} onAction={(sale, action) => void act(sale, action)} />
            ) : query.isError ? (
              <Alert color="red" role="alert">
                {t('common.error')}
              </Alert>
            ) : (
              <DelayedLoader aria-label={t('common.loading')} />
            )}
          </Stack>
        </Paper>
        <OutstandingInvoices />
        <CouponsSection tablesAboveIn={tablesAboveIn} />
      </Stack>
    </>
  );
}
