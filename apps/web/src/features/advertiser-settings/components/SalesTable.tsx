import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TSale } from '@helium/contracts';
import { receiptPath } from '../utils/settings.ts';
import { SaleStateBadge } from './SaleStateBadge.tsx';

/** The advertiser's purchases, newest as the server orders them, each with its receipt (a PDF). */
export function SalesTable({ sales }: { sales: TSale[] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sales-title">
      <Title order={2} size="h4" id="sales-title" mb="sm">
        {t('advertiserSetting.sales')}
      </Title>
      {sales.length === 0 ? (
        <Text c="dimmed" data-testid="sales-empty">
          {t('advertiserSetting.noSales')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label={t('advertiserSetting.sales')} data-testid="sales-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('advertiserSetting.saleId')}</Table.Th>
                <Table.Th>{t('advertiserSetting.date')}</Table.Th>
                <Table.Th ta="right">{t('advertiserSetting.amount')}</Table.Th>
                <Table.Th>{t('advertiserSetting.state')}</Table.Th>
                <Table.Th>{t('advertiserSetting.receipt')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sales.map((sale) => (
                <Table.Tr key={sale.id} data-testid={`sale-${sale.id}`}>
                  <Table.Td>{sale.id}</Table.Td>
                  <Table.Td>{sale.createdAtStr}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {sale.amountStr}
                  </Table.Td>
                  <Table.Td>
                    <SaleStateBadge state={sale.state} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor
                      href={receiptPath(sale.hash_id)}
                      aria-label={t('advertiserSetting.receiptOf', { id: sale.id })}
                      data-testid={`receipt-${sale.id}`}
                    >
                      {t('advertiserSetting.download')}
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
