import { Badge, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdvertiserOutstanding } from '@helium/contracts';
import { OverdueMark } from './OverdueMark.tsx';

/** One advertiser: its unpaid invoices, what it owes against its ceiling, and those overdue. */
export function OutstandingRow({ row }: { row: TAdvertiserOutstanding }) {
  const { t } = useTranslation();
  const overdue =
    row.overdueCount === 1
      ? t('adminPayments.overdueSummaryOne', { amount: row.overdueStr })
      : t('adminPayments.overdueSummary', { count: row.overdueCount, amount: row.overdueStr });
  return (
    <Table.Tr data-testid={`outstanding-${row.advertiserId}`}>
      <Table.Td>{row.brand}</Table.Td>
      <Table.Td>
        <Stack gap={2}>
          {row.invoices.map((invoice) => (
            <Group key={invoice.saleId} gap={6} wrap="nowrap" data-testid={`outstanding-invoice-${invoice.saleId}`}>
              <Text span size="sm" style={{ whiteSpace: 'nowrap' }}>
                {t('adminPayments.invoiceLine', {
                  number: invoice.invoiceNumber ?? invoice.saleId,
                  amount: invoice.amountStr,
                  date: invoice.dueAtStr,
                })}
              </Text>
              {invoice.isOverdue ? <OverdueMark>{t('adminPayments.overdueMark')}</OverdueMark> : null}
            </Group>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        <Stack gap={4} align="flex-end">
          <Text span size="sm" fw={600} data-testid="outstanding-total">
            {row.outstandingStr}
          </Text>
          {row.isOverLimit ? (
            <Badge color="orange" variant="light">
              {t('adminPayments.overLimit')}
            </Badge>
          ) : null}
        </Stack>
      </Table.Td>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }} data-testid="outstanding-ceiling">
        {row.isDefaultLimit ? t('adminPayments.defaultCeiling', { amount: row.limitStr }) : row.limitStr}
      </Table.Td>
      <Table.Td data-testid="outstanding-overdue">
        {row.overdueCount > 0 ? (
          <OverdueMark>{overdue}</OverdueMark>
        ) : (
          <Text span size="sm" c="dimmed">
            {t('adminPayments.noneOverdue')}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
