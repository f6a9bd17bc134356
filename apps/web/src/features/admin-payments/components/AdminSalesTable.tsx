import { Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminSale } from '@helium/contracts';
import type { SaleAction } from '../hooks/useSales.ts';
import { SaleRow } from './SaleRow.tsx';

/** The sales of the chosen filter. */
export function AdminSalesTable({
  sales,
  busyId,
  onAction,
}: {
  sales: TAdminSale[];
  busyId: number | null;
  onAction: (sale: TAdminSale, action: SaleAction) => void;
}) {
  const { t } = useTranslation();
  if (sales.length === 0) {
    return (
      <Text c="dimmed" data-testid="admin-sales-empty">
        {t('adminPayments.noSales')}
      </Text>
    );
  }
  const headers = [
    t('adminPayments.id'),
    t('adminPayments.advertiser'),
    t('adminPayments.method'),
    t('adminPayments.quantity'),
    t('adminPayments.amount'),
    t('adminPayments.reference'),
    t('adminPayments.invoiceNumber'),
    t('adminPayments.dueDate'),
    t('adminPayments.state'),
  ];
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table aria-label={t('adminPayments.salesTitle')} data-testid="admin-sales" striped fz="sm" horizontalSpacing={8}>
        <Table.Thead>
          <Table.Tr>
            {headers.map((header) => (
              <Table.Th key={header}>{header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sales.map((sale) => (
            <SaleRow key={sale.id} sale={sale} busy={busyId === sale.id} onAction={onAction} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
