import { Anchor, Badge, Button, Stack, Switch, Table, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd } from '@helium/contracts';
import { ctrRankColour } from '@helium/domain/activity';
import { useMetricTexts } from '../hooks/useMetricTexts.ts';
import { liveLink } from '../utils/logic.ts';
import { METRIC_KEYS } from '../utils/metricKeys.ts';
import type { AdTableProps } from './AdTable.tsx';
import { AdPreview } from './AdPreview.tsx';
import { BudgetSelect } from './BudgetSelect.tsx';
import { PublisherLine } from './PublisherLine.tsx';
import { ShareBar } from './ShareBar.tsx';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** One ad of the table, followed by its publishers' lines in by-publisher mode. */
export function AdRow(props: AdTableProps & { ad: TCampaignAd }) {
  const { ad, campaign, byPublisher, onActivate, onEject, onBudget, sharesStale } = props;
  const { t } = useTranslation();
  const texts = useMetricTexts()(ad.stats.total);
  const finished = campaign.isFinished;
  const hasRange = campaign.statsDateRange.length > 0;
  const rank = ad.stats.total.ctrRankStr;
  const ctrColour = ad.isShowing && rank ? ctrRankColour(rank) : undefined;
  const lines = byPublisher ? (ad.stats.byPublisher ?? []) : [];
  return (
    <>
      <Table.Tr data-testid={`ad-row-${ad.id}`} style={{ opacity: finished ? 0.5 : 1 }}>
        <Table.Td>
          <Stack gap={4}>
            <AdPreview ad={ad} dimmed={!ad.isShowing} />
            {ad.liveUrl ? (
              <Anchor size="xs" href={liveLink(ad.liveUrl, campaign.hashId, ad.hashId)} target="_blank" rel="noopener">
                {t('activity.seeItLive')}
              </Anchor>
            ) : null}
            {import.meta.env.DEV ? (
              <Text size="xs" c="dimmed">
                #{ad.id} {ad.hashId}
              </Text>
            ) : null}
          </Stack>
        </Table.Td>
        <Table.Td>
          <Stack gap={4} align="flex-start">
            <Switch
              checked={ad.isShowing}
              disabled={finished}
              aria-label={t('activity.adSwitch', { id: ad.id })}
              onChange={(event) => onActivate(ad, null, event.currentTarget.checked)}
            />
            {ad.isWebOnly ? <Badge size="xs">{t('activity.webOnly')}</Badge> : null}
            {ad.isOwlOnly ? (
              <Badge size="xs" color="grape">
                {t('activity.newslettersOnly')}
              </Badge>
            ) : null}
            {/* Eject sits with the switch it follows (an ad is ejected once switched off), not in a column of its own. */}
            <Button
              size="compact-xs"
              variant="light"
              color="gray"
              disabled={finished || ad.isShowing}
              onClick={() => onEject(ad)}
            >
              {t('activity.eject')}
            </Button>
            {byPublisher ? (
              <Text size="xs" fw={600}>
                {t('activity.totalLine')}
              </Text>
            ) : null}
          </Stack>
        </Table.Td>
        <Table.Td>
          <ShareBar ad={ad} stale={sharesStale} />
        </Table.Td>
        {METRIC_KEYS.map((key) =>
          key === 'ctr' ? (
            <Table.Td key={key} ta="right" style={NOWRAP}>
              <Tooltip
                label={t(rank && ad.isShowing ? `activity.ctrRank.${rank}` : 'activity.ctrRankNone')}
                multiline
                w={260}
              >
                <Text size="xs" c={ctrColour} fw={ctrColour ? 700 : undefined} data-testid={`ctr-${ad.id}`}>
                  {texts.ctr}
                </Text>
              </Tooltip>
            </Table.Td>
          ) : key === 'costs' ? (
            <Table.Td key={key} ta="right" style={NOWRAP}>
              <Stack gap={4} align="flex-end">
                <Text size="xs">{texts.costs}</Text>
                {campaign.canBudget && !hasRange ? (
                  <BudgetSelect ad={ad} onBudget={onBudget} disabled={finished} />
                ) : null}
              </Stack>
            </Table.Td>
          ) : (
            <Table.Td key={key} ta="right" style={NOWRAP}>
              <Text size="xs">{texts[key]}</Text>
            </Table.Td>
          ),
        )}
      </Table.Tr>
      {lines.map((line) => (
        <PublisherLine key={line.id} ad={ad} line={line} campaign={campaign} onActivate={onActivate} />
      ))}
    </>
  );
}
