import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminStats, TAdminStatsPublisher } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { isBelowRule } from '../utils/statsRules.ts';
import { FrequentUrls } from './FrequentUrls.tsx';

/** A percent or an amount stays on one line ("0,75 %" is not split at its space). */
const NOWRAP = { whiteSpace: 'nowrap' } as const;

/**
 * Web publishers: installed, pageviews against validated impressions per device (red below the 60 % rule), clicks,
 * CTR, revenues and projection, balance against the minimum (the row red when the balance exceeds it), totals.
 */
export function WebPublishersTable({ stats, withUrls }: { stats: TAdminStats; withUrls: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const web = stats.publishers.filter((publisher) => publisher.is_web);
  const validated = (pageviews: number, impressions: number, pct: number, missing: number) => (
    <>
      {format.number(pageviews)} / {format.number(impressions)}{' '}
      <Text span size="xs" c={isBelowRule(missing) ? 'red' : 'dimmed'} fw={isBelowRule(missing) ? 700 : undefined}>
        ({format.percent(pct)})
      </Text>
    </>
  );
  const row = (publisher: TAdminStatsPublisher) => {
    const perf = publisher.performance;
    return [
      <Table.Tr
        key={publisher.id}
        data-testid={`stats-publisher-${publisher.id}`}
        data-over-minimum={publisher.isBalanceOverMinimum}
        bg={publisher.isBalanceOverMinimum ? 'var(--mantine-color-red-light)' : undefined}
      >
        <Table.Td>{publisher.brand}</Table.Td>
        <Table.Td>
          <Badge color={publisher.is_installed ? 'green' : 'gray'} variant="light">
            {publisher.is_installed ? t('adminStats.installed') : t('adminStats.notInstalled')}
          </Badge>
        </Table.Td>
        <Table.Td ta="right" data-testid="desktop-validated">
          {validated(
            perf.perfs_pageviews_desktop,
            perf.perfs_validated_impressions_desktop,
            perf.validatedDesktopPct,
            perf.missingValidatedDesktopPct,
          )}
        </Table.Td>
        <Table.Td ta="right" data-testid="mobile-validated">
          {validated(
            perf.perfs_pageviews_mobile,
            perf.perfs_validated_impressions_mobile,
            perf.validatedMobilePct,
            perf.missingValidatedMobilePct,
          )}
        </Table.Td>
        <Table.Td ta="right">
          {format.number(perf.perfs_clicks_desktop)} / {format.number(perf.perfs_clicks_mobile)}
        </Table.Td>
        <Table.Td ta="right" style={NOWRAP}>
          {publisher.ctrStr}
        </Table.Td>
        <Table.Td ta="right">{format.euros(publisher.revenues)}</Table.Td>
        <Table.Td ta="right">{format.euros(publisher.projectedMonthlyRevenues)}</Table.Td>
        <Table.Td ta="right" style={NOWRAP}>
          {publisher.balanceStr} / {publisher.minBalanceForPayoutStr}
        </Table.Td>
      </Table.Tr>,
      withUrls ? (
        <Table.Tr key={`${publisher.id}-urls`}>
          <Table.Td colSpan={9}>
            <FrequentUrls performance={perf} />
          </Table.Td>
        </Table.Tr>
      ) : null,
    ];
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="admin-stats-web">
      <Title order={2} size="h4" id="admin-stats-web" mb="sm">
        {t('adminStats.webPublishers')}
      </Title>
      <Table.ScrollContainer minWidth={860}>
        <Table data-testid="admin-stats-publishers" fz="sm" horizontalSpacing={8} striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('adminStats.publisher')}</Table.Th>
              <Table.Th>{t('adminStats.installedHeader')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.desktopPageviewsImpressions')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.mobilePageviewsImpressions')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.clicksDesktopMobile')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.ctr')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.revenues')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.projection')}</Table.Th>
              <Table.Th ta="right">{t('adminStats.balanceMinimum')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{web.flatMap(row)}</Table.Tbody>
          <Table.Tfoot>
            <Table.Tr data-testid="stats-totals" fw={700}>
              <Table.Td>{t('adminStats.total')}</Table.Td>
              <Table.Td />
              <Table.Td ta="right">
                {format.number(stats.totals.pageviewsDesktop)} / {format.number(stats.totals.impressionsDesktop)}
              </Table.Td>
              <Table.Td ta="right">
                {format.number(stats.totals.pageviewsMobile)} / {format.number(stats.totals.impressionsMobile)}
              </Table.Td>
              <Table.Td ta="right">
                {format.number(stats.totals.clicksDesktop)} / {format.number(stats.totals.clicksMobile)}
              </Table.Td>
              <Table.Td ta="right" style={NOWRAP}>
                {stats.allPublishersCtrStr}
              </Table.Td>
              <Table.Td ta="right">{format.euros(stats.totals.revenues)}</Table.Td>
              <Table.Td ta="right">{format.euros(stats.totals.projectedMonthlyRevenues)}</Table.Td>
              <Table.Td ta="right">{format.euros(stats.totals.balance)}</Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
