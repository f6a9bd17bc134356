import { useState } from 'react';
import { Alert, LoadingOverlay, Paper, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminPayout } from '@helium/contracts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { AdminPayoutsTable } from './components/AdminPayoutsTable.tsx';
import { PayoutDecisionModal } from './components/PayoutDecisionModal.tsx';
import { PayoutsFilter } from './components/PayoutsFilter.tsx';
import { usePayouts } from './hooks/usePayouts.ts';
import type { PayoutDecision } from './utils/payouts.ts';

/** Admin: the publishers' payouts to send, and those paid or returned (issue 23). */
export function AdminPayoutsPage() {
  const { t } = useTranslation();
  const { filter, setFilter, query, payouts, decide } = usePayouts();
  const [deciding, setDeciding] = useState<{ payout: TAdminPayout; decision: PayoutDecision } | null>(null);
  return (
    <>
      <PageHeader title={t('nav.payouts')} />
      <Paper withBorder p="md" pos="relative">
        <LoadingOverlay visible={query.isFetching && query.isPlaceholderData} />
        <Stack gap="md">
          <PayoutsFilter value={filter} onChange={setFilter} />
          {payouts ? (
            <AdminPayoutsTable payouts={payouts} onDecide={(payout, decision) => setDeciding({ payout, decision })} />
          ) : query.isError ? (
            <Alert color="red" role="alert">
              {t('common.error')}
            </Alert>
          ) : (
            <DelayedLoader aria-label={t('common.loading')} />
          )}
        </Stack>
      </Paper>
      {deciding ? (
        <PayoutDecisionModal
          key={`${deciding.payout.id}:${deciding.decision}`}
          payout={deciding.payout}
          decision={deciding.decision}
          onClose={() => setDeciding(null)}
          onDecide={decide}
        />
      ) : null}
    </>
  );
}
