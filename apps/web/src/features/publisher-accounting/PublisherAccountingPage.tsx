import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../app/QueryContent.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { AccountingSummary } from './components/AccountingSummary.tsx';
import { PayoutPanel } from './components/PayoutPanel.tsx';
import { PendingPayoutBanner } from './components/PendingPayoutBanner.tsx';
import { TransactionsTable } from './components/TransactionsTable.tsx';
import { useAccounting } from './hooks/useAccounting.ts';

/**
 * Publisher Accounting (specification 02, section 2.5): total revenues, the balance and the minimum for a payout,
 * the payout menu, and the transactions.
 */
export function PublisherAccountingPage() {
  const { t } = useTranslation();
  const { query, accounting, requestPayout, requesting, error } = useAccounting();
  return (
    <>
      <PageHeader title={t('nav.accounting')} />
      <QueryContent data={accounting} isError={query.isError}>
        {(accounting) => (
          <Stack gap="md" maw={1100}>
            {accounting.pendingPayout ? <PendingPayoutBanner payout={accounting.pendingPayout} /> : null}
            <AccountingSummary accounting={accounting} />
            <PayoutPanel
              accounting={accounting}
              requesting={requesting}
              error={error}
              onRequest={(request) => void requestPayout(request)}
            />
            <Text size="sm" c="dimmed" data-testid="data-delay-note">
              {t('accounting.dataDelay')}
            </Text>
            <TransactionsTable transactions={accounting.transactions} />
          </Stack>
        )}
      </QueryContent>
    </>
  );
}
