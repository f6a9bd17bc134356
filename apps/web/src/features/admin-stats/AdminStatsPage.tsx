import { useState } from 'react';
import { Checkbox, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { QueryContent } from '../../app/QueryContent.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { MoneyAuditCard } from './components/MoneyAuditCard.tsx';
import { OwlStats } from './components/OwlStats.tsx';
import { RevenueSummary } from './components/RevenueSummary.tsx';
import { WebPublishersTable } from './components/WebPublishersTable.tsx';
import { useAdminStats } from './hooks/useAdminStats.ts';
import { footnoteKey } from './utils/statsRules.ts';

/**
 * Admin Stats, the admin's home (specification 01, section 2): revenue and its split, network figures, the money
 * audit (issue 32), the web publishers' table, newsletters, the most-frequent-URLs checkbox and the footnote with
 * the days averaged.
 */
export function AdminStatsPage() {
  const { t } = useTranslation();
  const [withUrls, setWithUrls] = useState(false);
  const { query, stats } = useAdminStats(withUrls);
  return (
    <>
      <PageHeader title={t('nav.stats')} />
      <QueryContent data={stats} isError={query.isError}>
        {(stats) => {
          const footnote = footnoteKey(stats.BACK_DAYS_TO_ANALYZE);
          return (
            <Stack gap="md">
              <RevenueSummary stats={stats} />
              <MoneyAuditCard />
              <Checkbox
                label={t('adminStats.showUrls')}
                checked={withUrls}
                onChange={(event) => setWithUrls(event.currentTarget.checked)}
                data-testid="show-urls"
              />
              <WebPublishersTable stats={stats} withUrls={withUrls && !query.isPlaceholderData} />
              <OwlStats stats={stats} />
              <Text size="sm" c="dimmed" data-testid="admin-stats-footnote">
                {t(footnote.key, { count: footnote.count })}
              </Text>
            </Stack>
          );
        }}
      </QueryContent>
    </>
  );
}
