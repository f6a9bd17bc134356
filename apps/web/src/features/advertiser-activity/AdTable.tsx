import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Progress,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd, TCampaignEx, TPublisherStatLine } from '@helium/contracts';
import { budgetChoices, budgetToSend, ctrRankColour } from '@helium/domain/activity';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { useFormat } from '../format/useFormat.ts';
import { InfoIcon } from './icons.tsx';
import { liveLink } from './logic.ts';
import { METRIC_KEYS, MetricHeaders, useMetricTexts } from './MetricCells.tsx';

const NOWRAP = { whiteSpace: 'nowrap' } as const;

export interface AdTableProps {
  campaign: TCampaignEx;
  byPublisher: boolean;
  /** True while AutoPilot was just switched: shares are hidden until the server refreshes them. */
  sharesStale: boolean;
  onActivate: (ad: TCampaignAd, publisherId: number | null, active: boolean) => void;
  onEject: (ad: TCampaignAd) => void;
  onBudget: (ad: TCampaignAd, budget: number) => void;
}

export function AdPreview({ ad, dimmed }: { ad: TCampaignAd; dimmed: boolean }) {
  const { t } = useTranslation();
  const style = { maxWidth: 120, maxHeight: 80, display: 'block', opacity: dimmed ? 0.35 : 1 } as const;
  return (
    <Anchor href={ad.link ?? undefined} target="_blank" rel="noopener noreferrer" aria-label={t('activity.openAdLink')}>
      {ad.type === 'video' && ad.mp4 ? (
        <video src={ad.mp4} poster={ad.poster ?? undefined} autoPlay loop muted playsInline style={style} />
      ) : (
        <img src={ad.image ?? undefined} alt={t('activity.adPreview', { id: ad.id })} style={style} />
      )}
    </Anchor>
  );
}

function ShareBar({ ad, stale }: { ad: TCampaignAd; stale: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (stale || ad.sharePct === null) return <DelayedLoader size="xs" aria-label={t('activity.shareComputing')} />;
  const pct = ad.isShowing ? ad.sharePct : 0;
  const text = format.percent(pct, 1);
  const newsletter = ad.isOwlOnly || ad.format_id === 2;
  return (
    <Tooltip label={t(newsletter ? 'activity.shareTooltipNewsletters' : 'activity.shareTooltipWeb', { pct: text })}>
      <Stack gap={2} miw={90}>
        <Text size="xs">{text}</Text>
        <Progress value={pct} size="sm" color="teal" aria-label={t('activity.shareLabel')} />
      </Stack>
    </Tooltip>
  );
}

function BudgetSelect({
  ad,
  onBudget,
  disabled,
}: {
  ad: TCampaignAd;
  onBudget: AdTableProps['onBudget'];
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const choices = budgetChoices(ad.stats.total.costs, ad.stats.total.remainingMaxBudget, ad.budget);
  const data = [
    { value: '-1', label: t('activity.noBudget') },
    ...choices.map((value) => ({
      value: String(value),
      label: t('activity.maxAmount', { amount: format.euros(value) }),
    })),
  ];
  return (
    <Select
      size="xs"
      w={124}
      aria-label={t('activity.budget')}
      data={data}
      value={ad.budget > 0 ? String(ad.budget) : '-1'}
      allowDeselect={false}
      disabled={disabled}
      onChange={(value) => value !== null && onBudget(ad, budgetToSend(Number(value)))}
    />
  );
}

function PublisherLine({
  ad,
  line,
  campaign,
  onActivate,
}: {
  ad: TCampaignAd;
  line: TPublisherStatLine;
  campaign: TCampaignEx;
  onActivate: AdTableProps['onActivate'];
}) {
  const { t } = useTranslation();
  const texts = useMetricTexts()(line);
  const canSwitch = line.isPublisherInstalled && line.isPublisherAuthorized && campaign.canActivateAdsByPublisher;
  return (
    <Table.Tr data-testid={`publisher-line-${ad.id}-${line.id}`}>
      <Table.Td />
      <Table.Td colSpan={2}>
        <Group gap="xs" wrap="nowrap">
          {canSwitch ? (
            <Switch
              size="xs"
              checked={line.doShow}
              disabled={campaign.isFinished || ad.isEjected}
              aria-label={t('activity.publisherSwitch', { brand: line.brand })}
              onChange={(event) => onActivate(ad, line.id, event.currentTarget.checked)}
            />
          ) : (
            <Tooltip label={t('activity.publisherNotSwitchable')} multiline w={260}>
              <span>
                <InfoIcon label={t('activity.publisherNotSwitchable')} />
              </span>
            </Tooltip>
          )}
          <Text size="sm">{line.brand}</Text>
        </Group>
      </Table.Td>
      {METRIC_KEYS.map((key) => (
        <Table.Td key={key} ta="right" style={NOWRAP}>
          <Text size="sm">{texts[key]}</Text>
        </Table.Td>
      ))}
      <Table.Td />
    </Table.Tr>
  );
}

function AdRow(props: AdTableProps & { ad: TCampaignAd }) {
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
          <Stack gap={4} miw={130} align="flex-start">
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
                <Text size="sm" c={ctrColour} fw={ctrColour ? 700 : undefined} data-testid={`ctr-${ad.id}`}>
                  {texts.ctr}
                </Text>
              </Tooltip>
            </Table.Td>
          ) : key === 'costs' ? (
            <Table.Td key={key} ta="right" style={NOWRAP}>
              <Stack gap={4} align="flex-end">
                <Text size="sm">{texts.costs}</Text>
                {campaign.canBudget && !hasRange ? (
                  <BudgetSelect ad={ad} onBudget={onBudget} disabled={finished} />
                ) : null}
              </Stack>
            </Table.Td>
          ) : (
            <Table.Td key={key} ta="right" style={NOWRAP}>
              <Text size="sm">{texts[key]}</Text>
            </Table.Td>
          ),
        )}
        <Table.Td>
          <Button
            size="xs"
            variant="light"
            color="gray"
            disabled={finished || ad.isShowing}
            onClick={() => onEject(ad)}
          >
            {t('activity.eject')}
          </Button>
        </Table.Td>
      </Table.Tr>
      {lines.map((line) => (
        <PublisherLine key={line.id} ad={ad} line={line} campaign={campaign} onActivate={onActivate} />
      ))}
    </>
  );
}

export function AdTable(props: AdTableProps) {
  const { t } = useTranslation();
  const active = props.campaign.ads.filter((ad) => !ad.isEjected);
  if (active.length === 0) return <Text c="dimmed">{t('activity.noAds')}</Text>;
  return (
    <Box style={{ overflowX: 'auto' }}>
      <Table verticalSpacing="xs" striped={false} aria-label={t('activity.adsTable')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('activity.ad')}</Table.Th>
            <Table.Th>{t('activity.activation')}</Table.Th>
            <Table.Th>{t('activity.distribution')}</Table.Th>
            <MetricHeaders />
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {active.map((ad) => (
            <AdRow key={ad.id} {...props} ad={ad} />
          ))}
        </Table.Tbody>
      </Table>
    </Box>
  );
}
