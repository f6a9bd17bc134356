import { Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TTransaction } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** The publisher's ledger, newest first: each line with the balance after it. Scrolls sideways on a phone. */
export function TransactionsTable({ transactions }: { transactions: TTransaction[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="transactions-title">
      <Title order={2} size="h4" id="transactions-title" mb="sm">
        {t('accounting.transactions')}
      </Title>
      {transactions.length === 0 ? (
        <Text c="dimmed" data-testid="transactions-empty">
          {t('accounting.noTransactions')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('accounting.transactions')} data-testid="transactions" striped fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('accounting.day')}</Table.Th>
                <Table.Th ta="right">{t('accounting.amount')}</Table.Th>
                <Table.Th ta="right">{t('accounting.impressions')}</Table.Th>
                <Table.Th>{t('accounting.type')}</Table.Th>
                <Table.Th>{t('accounting.note')}</Table.Th>
                <Table.Th ta="right">{t('accounting.balance')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transactions.map((transaction) => (
                <Table.Tr key={transaction.id} data-testid={`transaction-${transaction.id}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{transaction.dayStr}</Table.Td>
                  <Table.Td ta="right" c={transaction.amount < 0 ? 'red' : undefined} style={{ whiteSpace: 'nowrap' }}>
                    {format.money(transaction.amount)}
                  </Table.Td>
                  <Table.Td ta="right">
                    {transaction.impressions > 0 ? format.number(transaction.impressions) : ''}
                  </Table.Td>
                  <Table.Td>{transaction.typeStr}</Table.Td>
                  <Table.Td>{transaction.note ?? ''}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {format.money(transaction.balance)}
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
