import { Alert, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DelayedLoader } from '../../../app/DelayedLoader.tsx';
import { useOutstandingInvoices } from '../hooks/useOutstandingInvoices.ts';
import { OutstandingRow } from './OutstandingRow.tsx';

/** Unpaid invoices by advertiser, most owed first (the ceiling of unpaid invoices, docs/billing.md). */
export function OutstandingInvoices() {
  const { t } = useTranslation();
  const { query, advertisers } = useOutstandingInvoices();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="outstanding-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="outstanding-title">
          {t('adminPayments.outstandingTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('adminPayments.outstandingHint')}
        </Text>
        {advertisers ? (
          advertisers.length === 0 ? (
            <Text c="dimmed">{t('adminPayments.noOutstanding')}</Text>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table aria-label={t('adminPayments.outstandingTitle')} data-testid="outstanding" fz="sm" striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('adminPayments.advertiser')}</Table.Th>
                    <Table.Th>{t('adminPayments.invoices')}</Table.Th>
                    <Table.Th ta="right">{t('adminPayments.outstanding')}</Table.Th>
                    <Table.Th ta="right">{t('adminPayments.ceiling')}</Table.Th>
                    <Table.Th>{t('adminPayments.overdueInvoices')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {advertisers.map((row) => (
                    <OutstandingRow key={row.advertiserId} row={row} />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        ) : query.isError ? (
          <Alert color="red" role="alert">
            {t('common.error')}
          </Alert>
        ) : (
          <DelayedLoader aria-label={t('common.loading')} />
        )}
      </Stack>
    </Paper>
  );
}
