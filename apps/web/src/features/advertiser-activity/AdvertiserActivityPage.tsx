import '@mantine/dates/styles.css';
import '@mantine/charts/styles.css';
import 'dayjs/locale/fr';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Collapse,
  Group,
  LoadingOverlay,
  Menu,
  Modal,
  Paper,
  Popover,
  Progress,
  Slider,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
  ActionIcon,
  CloseButton,
} from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { LineChart } from '@mantine/charts';
import { useInterval } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd, TCampaignEx } from '@helium/contracts';
import { AUTOFLOW_STEP, autoFlowDays, autoFlowMax } from '@helium/domain/activity';
import { isoDay } from '@helium/domain/format';
import { apiPost, isApiError } from '../../api/client.ts';
import { DelayedLoader } from '../../app/DelayedLoader.tsx';
import { PageHeader } from '../../app/PageHeader.tsx';
import { useFormat } from '../format/useFormat.ts';
import { AdPreview, AdTable } from './AdTable.tsx';
import { downloadCsv, toCsv } from './csv.ts';
import { FlaskIcon, LockIcon } from './icons.tsx';
import {
  DRAWER_HEIGHT_PX,
  REFRESH_EVERY_TICKS,
  REFRESH_TICK_MS,
  initialByPublisher,
  isRefreshPaused,
  rangeToSend,
} from './logic.ts';
import { METRIC_KEYS, MetricHeaders, useMetricTexts } from './MetricCells.tsx';
import { CAMPAIGN_QUERY_KEY, useCampaignAction } from './useCampaignActions.ts';

function useCampaign(byPublisher: boolean | null) {
  return useQuery({
    queryKey: [...CAMPAIGN_QUERY_KEY, byPublisher ?? 'first'],
    queryFn: () =>
      apiPost('/api/advertiser/get-campaignex', {
        doByPublisher: byPublisher ?? false,
        doIncludeRealTimeHits: true,
        doByUrl: false,
      }),
    placeholderData: (previous) => previous,
    retry: false,
  });
}

function DateRangeControl({
  campaign,
  onOpenChange,
  onPick,
}: {
  campaign: TCampaignEx;
  onOpenChange: (open: boolean) => void;
  onPick: (range: [string | null, string | null]) => void;
}) {
  const { t, i18n } = useTranslation();
  const [opened, setOpened] = useState(false);
  const stored = campaign.statsDateRange;
  const [value, setValue] = useState<[string | null, string | null]>([
    stored[0] ?? null,
    stored[1] ?? stored[0] ?? null,
  ]);
  const open = (next: boolean) => {
    setOpened(next);
    onOpenChange(next);
    if (next) setValue([stored[0] ?? null, stored[1] ?? stored[0] ?? null]);
  };
  return (
    <Group gap={4} wrap="nowrap">
      <Popover opened={opened} onChange={open} position="bottom-start" shadow="md" trapFocus>
        <Popover.Target>
          <Button variant="default" onClick={() => open(!opened)} data-testid="date-range">
            {campaign.statsDateRangeStr ?? t('activity.allDates')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack>
            <DatePicker
              type="range"
              allowSingleDateInRange
              numberOfColumns={2}
              maxDate={isoDay(new Date())}
              firstDayOfWeek={0}
              locale={i18n.language === 'fr' ? 'fr' : 'en'}
              value={value}
              onChange={(next) => setValue(next as [string | null, string | null])}
              defaultDate={stored[0] ?? undefined}
            />
            <Group justify="flex-end">
              <Button
                disabled={!value[0]}
                onClick={() => {
                  onPick(value);
                  open(false);
                }}
              >
                {t('activity.select')}
              </Button>
            </Group>
          </Stack>
        </Popover.Dropdown>
      </Popover>
      {stored.length > 0 ? (
        <CloseButton aria-label={t('activity.clearDates')} onClick={() => onPick([null, null])} />
      ) : null}
    </Group>
  );
}

function AutoFlowMenu({
  campaign,
  onOpenChange,
  onChange,
}: {
  campaign: TCampaignEx;
  onOpenChange: (open: boolean) => void;
  onChange: (value: number) => void;
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const remaining = campaign.stats.total.remainingImpressions;
  const max = autoFlowMax(remaining);
  const [value, setValue] = useState(campaign.pauseDailyImpressions);
  const [opened, setOpened] = useState(false);
  // The server's value is taken while the menu is closed; while it is open the slider is the advertiser's.
  useEffect(() => {
    if (!opened) setValue(campaign.pauseDailyImpressions);
  }, [campaign.pauseDailyImpressions, opened]);
  const days = autoFlowDays(remaining, value);
  return (
    <Menu
      closeOnItemClick={false}
      onChange={(next) => {
        setOpened(next);
        onOpenChange(next);
      }}
      width={320}
      position="bottom-start"
    >
      <Menu.Target>
        <Tooltip label={t('activity.autoFlow')}>
          <ActionIcon
            variant={campaign.pauseDailyImpressions > 0 ? 'filled' : 'default'}
            size="lg"
            aria-label={t('activity.autoFlow')}
            disabled={campaign.is_cpc || campaign.isFinished}
          >
            <FlaskIcon />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown p="md">
        <Stack gap="sm">
          <Text fw={600}>{t('activity.autoFlow')}</Text>
          <Slider
            min={0}
            max={max}
            step={AUTOFLOW_STEP}
            value={Math.min(value, max)}
            onChange={setValue}
            onChangeEnd={onChange}
            label={(v) => format.number(v)}
            thumbLabel={t('activity.autoFlowSlider')}
          />
          <Text size="sm" data-testid="autoflow-text">
            {days === null
              ? t('activity.autoFlowOff')
              : t('activity.autoFlowDays', { cap: format.number(value), days: format.number(days) })}
          </Text>
        </Stack>
      </Menu.Dropdown>
    </Menu>
  );
}

function UrlModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const texts = useMetricTexts();
  const query = useQuery({
    queryKey: [...CAMPAIGN_QUERY_KEY, 'byUrl'],
    queryFn: () =>
      apiPost('/api/advertiser/get-campaignex', { doByPublisher: false, doIncludeRealTimeHits: true, doByUrl: true }),
    enabled: opened,
    gcTime: 0,
  });
  const rows = query.data?.stats.byUrl ?? [];
  const exportCsv = () =>
    downloadCsv(
      'activity-by-url.csv',
      toCsv(
        ['url', ...METRIC_KEYS],
        rows.map((row) => [row.url, ...METRIC_KEYS.map((key) => row[key])]),
      ),
    );
  return (
    <Modal opened={opened} onClose={onClose} title={t('activity.byUrlTitle')} size="90%">
      {query.isPending ? (
        <DelayedLoader aria-label={t('common.loading')} />
      ) : rows.length === 0 ? (
        <Text>{t('activity.noStatsYet')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={900}>
          <Table aria-label={t('activity.byUrlTitle')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.url')}</Table.Th>
                <MetricHeaders />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => {
                const text = texts(row);
                return (
                  <Table.Tr key={row.url}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{row.url}</Table.Td>
                    {METRIC_KEYS.map((key) => (
                      <Table.Td key={key} ta="right">
                        {text[key]}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={exportCsv} disabled={rows.length === 0}>
          {t('activity.exportCsv')}
        </Button>
        <Button onClick={onClose}>{t('activity.ok')}</Button>
      </Group>
    </Modal>
  );
}

function ActivityChart({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (campaign.stats.byDay.length === 0) return null;
  const data = campaign.stats.byDay.map((row) => ({
    day: format.date(`${row.day}T00:00:00Z`),
    [t('activity.metric.impressions')]: row.impressions,
    [t('activity.metric.clicks')]: row.clicks,
    [t('activity.metric.ctr')]: Math.round(row.ctr * 100) / 100,
  }));
  return (
    <Paper withBorder p="md" data-testid="activity-chart">
      <Title order={2} size="h4" mb="sm">
        {t('activity.chartTitle')}
      </Title>
      <LineChart
        h={240}
        data={data}
        dataKey="day"
        withRightYAxis
        withLegend
        valueFormatter={(value) => format.number(value, Number.isInteger(value) ? 0 : 2)}
        series={[
          { name: t('activity.metric.impressions'), color: 'indigo.6' },
          { name: t('activity.metric.clicks'), color: 'teal.6' },
          { name: t('activity.metric.ctr'), color: 'orange.6', yAxisId: 'right' },
        ]}
      />
    </Paper>
  );
}

export function AdvertiserActivityPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const texts = useMetricTexts();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [byPublisher, setByPublisher] = useState<boolean | null>(null);
  const [datePickerOpen, setDatePickerOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [urlOpen, setUrlOpen] = useState(false);
  const [addOpen, setAddOpen] = useState(false);
  const [successOpen, setSuccessOpen] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [sharesStale, setSharesStale] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const query = useCampaign(byPublisher);
  const campaign = query.data;

  // First load: by-publisher mode on for trial campaigns.
  useEffect(() => {
    if (campaign && byPublisher === null) setByPublisher(initialByPublisher(campaign));
  }, [campaign, byPublisher]);

  // Returning from card payment opens the success modal and clears the query.
  useEffect(() => {
    if (params.get('event') === 'successfulPayment') {
      setSuccessOpen(true);
      setParams({}, { replace: true });
    }
  }, [params, setParams]);

  const activation = useCampaignAction('/api/advertiser/update-campaign-ad-activation');
  const ejection = useCampaignAction('/api/advertiser/update-campaign-ad-ejection');
  const budget = useCampaignAction('/api/advertiser/update-campaign-ad-budget');
  const pause = useCampaignAction('/api/advertiser/update-campaign-pause');
  const autopilot = useCampaignAction('/api/advertiser/update-campaign-autopilot');

  const paused = isRefreshPaused({
    modalOpen: urlOpen || addOpen || successOpen,
    menuOpen,
    datePickerOpen,
    activationPending: activation.isPending,
    hasDateRange: (campaign?.statsDateRange.length ?? 0) > 0,
  });
  const [ticks, setTicks] = useState(0);
  const interval = useInterval(() => setTicks((count) => count + 1), REFRESH_TICK_MS);
  useEffect(() => {
    if (paused) interval.stop();
    else interval.start();
    return interval.stop;
  }, [paused, interval]);
  useEffect(() => {
    if (ticks > 0 && ticks % REFRESH_EVERY_TICKS === 0) {
      void query.refetch().then(() => setSharesStale(false));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ticks]);

  if (query.isError && isApiError(query.error, 404)) {
    return (
      <>
        <PageHeader title={t('nav.activity')} />
        <Text>{t('activity.noCampaign')}</Text>
      </>
    );
  }
  if (!campaign) {
    return (
      <>
        <PageHeader title={t('nav.activity')} />
        <DelayedLoader aria-label={t('common.loading')} />
      </>
    );
  }

  const total = texts(campaign.stats.total);
  const ejected = campaign.ads.filter((ad) => ad.isEjected);
  const finished = campaign.isFinished;
  const creditsPct = campaign.is_cpc
    ? campaign.stats.total.remainingClicksPct
    : campaign.stats.total.remainingImpressionsPct;

  const reloadWaiting = async () => {
    setWaiting(true);
    try {
      await queryClient.invalidateQueries({ queryKey: CAMPAIGN_QUERY_KEY });
    } finally {
      setWaiting(false);
    }
  };

  const onActivate = (ad: TCampaignAd, publisherId: number | null, active: boolean) =>
    activation.mutate({
      campaignId: campaign.id,
      ad: { id: ad.id },
      adId: ad.id,
      publisherId,
      isAdActive: publisherId === null ? active : ad.isShowing,
      isAdPublisherActive: publisherId === null ? undefined : active,
    });
  const onEject = (ad: TCampaignAd) => {
    if (!window.confirm(t('activity.confirmEject'))) return;
    ejection.mutate({ campaignId: campaign.id, adId: ad.id, doEject: true }, { onSuccess: () => setDrawerOpen(true) });
  };
  const onInject = (ad: TCampaignAd) => {
    if (!window.confirm(t('activity.confirmInject'))) return;
    ejection.mutate(
      { campaignId: campaign.id, adId: ad.id, doEject: false },
      { onSuccess: () => setDrawerOpen(false) },
    );
  };
  const onPickRange = async (range: [string | null, string | null]) => {
    setWaiting(true);
    try {
      await apiPost('/api/advertiser/update-stats-ex', { campaignId: campaign.id, statsExDates: rangeToSend(range) });
    } catch (error) {
      console.error('update-stats-ex failed', error);
    }
    await reloadWaiting();
  };
  const setAddModal = (open: boolean) => {
    setAddOpen(open);
    apiPost('/api/common/user-activity', {
      activityStr: open ? 'advertiserOpensAddCreditsModal' : 'advertiserClosesAddCreditsModal',
    }).catch((error) => console.error('user-activity failed', error));
  };
  const exportTotals = () => {
    const rows = [
      [t('activity.totalLine'), ...METRIC_KEYS.map((key) => campaign.stats.total[key])],
      ...campaign.ads.flatMap((ad) => [
        [`ad ${ad.id}`, ...METRIC_KEYS.map((key) => ad.stats.total[key])],
        ...(ad.stats.byPublisher ?? []).map((line) => [
          `ad ${ad.id} / ${line.brand}`,
          ...METRIC_KEYS.map((key) => line[key]),
        ]),
      ]),
    ];
    downloadCsv(`campaign-${campaign.hashId}.csv`, toCsv(['line', ...METRIC_KEYS], rows));
  };

  return (
    <Stack pos="relative">
      <LoadingOverlay visible={waiting || (query.isFetching && query.isPlaceholderData)} />
      <PageHeader title={t('nav.activity')} />
      {campaign.trialStr ? (
        <Alert color="yellow" data-testid="trial-banner">
          {campaign.trialStr}
        </Alert>
      ) : null}

      <Group gap="sm" wrap="wrap" align="center">
        <DateRangeControl campaign={campaign} onOpenChange={setDatePickerOpen} onPick={onPickRange} />
        <Switch
          label={t('activity.byPublisher')}
          checked={Boolean(byPublisher)}
          onChange={(event) => setByPublisher(event.currentTarget.checked)}
        />
        <Button variant="default" onClick={() => setUrlOpen(true)}>
          {t('activity.byUrl')}
        </Button>
        {campaign.isAutoPilotVisible ? (
          <Switch
            label={t('activity.autoPilot')}
            checked={campaign.isAutoPilot}
            onChange={(event) => {
              setSharesStale(true);
              // Shares show a spinner until the server has recomputed them.
              autopilot.mutate(
                { campaignId: campaign.id, isAutoPilot: event.currentTarget.checked },
                {
                  onSettled: async () => {
                    await queryClient.refetchQueries({ queryKey: CAMPAIGN_QUERY_KEY });
                    setSharesStale(false);
                  },
                },
              );
            }}
          />
        ) : null}
        <AutoFlowMenu
          campaign={campaign}
          onOpenChange={setMenuOpen}
          onChange={(value) => pause.mutate({ campaignId: campaign.id, pauseDailyImpressions: value })}
        />
        <Stack gap={2} miw={220}>
          <Text size="sm" data-testid="credits-text">
            {campaign.is_cpc
              ? t('activity.remainingClicks', {
                  count: campaign.stats.total.remainingClicks,
                  n: format.number(campaign.stats.total.remainingClicks),
                })
              : t('activity.remainingImpressions', {
                  count: campaign.stats.total.remainingImpressions,
                  n: format.number(campaign.stats.total.remainingImpressions),
                })}
          </Text>
          <Progress value={creditsPct} color={finished ? 'red' : 'teal'} aria-label={t('activity.credits')} />
        </Stack>
        <Button onClick={() => setAddModal(true)}>{t('activity.add')}</Button>
        <Button variant="subtle" onClick={exportTotals}>
          {t('activity.exportCsv')}
        </Button>
      </Group>

      <Paper withBorder p="sm">
        <Table aria-label={t('activity.totals')}>
          <Table.Thead>
            <Table.Tr>
              <MetricHeaders />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr data-testid="totals-row">
              {METRIC_KEYS.map((key) => (
                <Table.Td key={key} ta="right" data-testid={`total-${key}`} style={{ whiteSpace: 'nowrap' }}>
                  <Text fw={700}>{total[key]}</Text>
                </Table.Td>
              ))}
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Paper>

      {ejected.length > 0 ? (
        <Paper withBorder p="sm" data-testid="ejected-drawer">
          <UnstyledButton onClick={() => setDrawerOpen((open) => !open)} aria-expanded={drawerOpen}>
            <Text fw={600}>{t('activity.ejectedCount', { count: ejected.length })}</Text>
          </UnstyledButton>
          <Collapse expanded={drawerOpen}>
            <Stack h={DRAWER_HEIGHT_PX} style={{ overflowY: 'auto' }} mt="sm">
              {ejected.map((ad) => (
                <Group key={ad.id} data-testid={`ejected-${ad.id}`}>
                  <AdPreview ad={ad} dimmed />
                  {ad.isLocked ? (
                    <LockIcon label={t('activity.locked')} />
                  ) : (
                    <Button size="xs" disabled={finished} onClick={() => onInject(ad)}>
                      {t('activity.reinject')}
                    </Button>
                  )}
                </Group>
              ))}
            </Stack>
          </Collapse>
        </Paper>
      ) : null}

      <AdTable
        campaign={campaign}
        byPublisher={Boolean(byPublisher)}
        sharesStale={sharesStale}
        onActivate={onActivate}
        onEject={onEject}
        onBudget={(ad, value) => budget.mutate({ campaignId: campaign.id, ad: { id: ad.id, budget: value } })}
      />

      <ActivityChart campaign={campaign} />

      <UrlModal opened={urlOpen} onClose={() => setUrlOpen(false)} />
      <Modal opened={addOpen} onClose={() => setAddModal(false)} title={t('activity.addCredits')}>
        {null}
      </Modal>
      <Modal opened={successOpen} onClose={() => setSuccessOpen(false)} title={t('activity.buySuccess')}>
        <Text>{t('activity.buyThanks')}</Text>
        <Group justify="flex-end" mt="md">
          <Button onClick={() => setSuccessOpen(false)}>{t('activity.ok')}</Button>
        </Group>
      </Modal>
    </Stack>
  );
}
