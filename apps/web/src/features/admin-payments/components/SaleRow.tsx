import { Button, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminSale } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { SaleStateBadge } from '../../advertiser-settings/components/SaleStateBadge.tsx';
import type { SaleAction } from '../hooks/useSales.ts';

/**
 * One sale: who, how, how much, its references, when it is due, its state and, while it awaits payment, what to do
 * with it. A card payment is confirmed by the card processor, never by hand: it can only be cancelled. A cancelled
 * Bitcoin or invoice sale whose payment arrives anyway is recorded with "Payment received" (a late payment).
 */
export function SaleRow({
  sale,
  busy,
  onAction,
}: {
  sale: TAdminSale;
  busy: boolean;
  onAction: (sale: TAdminSale, action: SaleAction) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const open = sale.state === 'pending' || sale.state === 'unpaid';
  const confirmable = open && sale.method !== 'card';
  const paidLate = sale.state === 'cancelled' && sale.method !== 'card' && sale.latePayment === null;
  const ask = (action: SaleAction) => {
    const question =
      action === 'cancel'
        ? 'adminPayments.cancelQuestion'
        : paidLate
          ? 'adminPayments.latePaymentQuestion'
          : 'adminPayments.confirmPaidQuestion';
    if (window.confirm(t(question, { id: sale.id, brand: sale.brand, amount: sale.amountInCurrency }))) {
      onAction(sale, action);
    }
  };
  const quantity = format.number(sale.quantity);
  return (
    <Table.Tr data-testid={`admin-sale-${sale.id}`}>
      <Table.Td>{sale.id}</Table.Td>
      <Table.Td>{sale.brand}</Table.Td>
      <Table.Td>{t(`adminPayments.methods.${sale.method}`)}</Table.Td>
      <Table.Td ta="right">
        {sale.is_cpc ? t('buy.clicks', { n: quantity }) : t('buy.impressions', { n: quantity })}
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {sale.amountStr}
      </Table.Td>
      <Table.Td ff="monospace">{sale.reference}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{sale.invoiceNumber ?? ''}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {sale.dueAtStr ? (
          <Text
            span
            size="sm"
            c={sale.isOverdue ? 'red' : undefined}
            fw={sale.isOverdue ? 700 : undefined}
            data-overdue={sale.isOverdue || undefined}
          >
            {sale.dueAtStr}
            {sale.isOverdue ? ` (${t('adminPayments.overdue')})` : ''}
          </Text>
        ) : null}
      </Table.Td>
      <Table.Td>
        <Stack gap={6} align="flex-start">
          <SaleStateBadge state={sale.state} />
          {sale.latePayment ? (
            <Text span size="xs" fw={600} data-testid="late-payment">
              {t(`adminPayments.latePayment.${sale.latePayment}`)}
            </Text>
          ) : null}
          {paidLate ? (
            <Button
              size="compact-sm"
              variant="default"
              loading={busy}
              onClick={() => ask('confirm')}
              aria-label={t('adminPayments.latePaymentReceivedOf', { id: sale.id })}
            >
              {t('adminPayments.latePaymentReceived')}
            </Button>
          ) : null}
          {open ? (
            <Stack gap={4} align="stretch">
              {confirmable ? (
                <Button
                  size="compact-sm"
                  color="teal"
                  loading={busy}
                  onClick={() => ask('confirm')}
                  aria-label={t('adminPayments.confirmPaidOf', { id: sale.id })}
                >
                  {t('adminPayments.confirmPaid')}
                </Button>
              ) : null}
              <Button
                size="compact-sm"
                variant="default"
                disabled={busy}
                onClick={() => ask('cancel')}
                aria-label={t('adminPayments.cancelOf', { id: sale.id })}
              >
                {t('adminPayments.cancel')}
              </Button>
            </Stack>
          ) : null}
        </Stack>
      </Table.Td>
    </Table.Tr>
  );
}
