import { Anchor, Badge, Group, Image, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminActivityPublisher, TAdminActivityShow } from '@helium/contracts';
import { ctrRankColour, fileSizeKb } from '@helium/domain/activity';
import { useFormat } from '../format/useFormat.ts';
import classes from './AdminActivity.module.css';

type Display = 'desktop' | 'mobile';

function AdCard({ show, display }: { show: TAdminActivityShow; display: Display }) {
  const { t } = useTranslation();
  const format = useFormat();
  // Decided by the server on the unrounded share; share_pct is rounded to the 2 decimals shown.
  const faded = show.is_faded;
  const impressions = display === 'desktop' ? show.desktop_impressions : show.mobile_impressions;
  const clicks = display === 'desktop' ? show.desktop_clicks : show.mobile_clicks;
  const rank = display === 'desktop' ? show.desktopRank : show.mobileRank;
  const media = show.ad.type === 'video' ? show.ad.mp4 : show.ad.image;
  const thumbnail = show.ad.type === 'video' ? show.ad.poster : show.ad.image;
  return (
    <Paper
      withBorder
      p="xs"
      className={faded ? classes.faded : undefined}
      data-testid={`ad-card-${display}-${show.ad.id}`}
      data-faded={faded}
    >
      <Stack gap={4}>
        <Group justify="space-between" gap={4}>
          <Text size="sm" fw={700}>
            #{show.ad.id}
          </Text>
          {show.campaign.is_filler ? (
            <Badge size="xs" color="gray">
              {t('adminActivity.filler')}
            </Badge>
          ) : null}
        </Group>
        {thumbnail ? <Image src={thumbnail} alt={`#${show.ad.id}`} h={60} fit="contain" /> : null}
        <Text size="xs">
          {t(`adminActivity.${show.ad.type}`)} ·{' '}
          {t('adminActivity.sizeKb', { kb: format.number(fileSizeKb(show.ad.filesize)) })} ·{' '}
          {t('adminActivity.format', { id: show.format_id })}
        </Text>
        {media ? (
          <Anchor size="xs" href={media} target="_blank" rel="noopener">
            {t('adminActivity.media')}
          </Anchor>
        ) : null}
        <Text size="xs">
          {t('adminActivity.impressions')}: {format.number(impressions)} · {t('adminActivity.clicks')}:{' '}
          {format.number(clicks)}
        </Text>
        <Text
          size="xs"
          fw={700}
          c={show.ctrRankStr ? ctrRankColour(show.ctrRankStr) : undefined}
          data-testid="current-ctr"
        >
          {t('adminActivity.ctr')}: {format.percent(show.current_ctr, 2)}
        </Text>
        {rank !== null ? <Text size="xs">{t('adminActivity.weightRank', { rank })}</Text> : null}
        <Progress value={show.share_pct} size="sm" aria-label={t('adminActivity.share')} />
        <Text size="xs">
          {t('adminActivity.share')}: {format.percent(show.share_pct, 2)}
        </Text>
      </Stack>
    </Paper>
  );
}

function DisplayBlock({
  publisher,
  data,
}: {
  publisher: TAdminActivityPublisher;
  data: TAdminActivityPublisher['displayData'][number];
}) {
  const { t } = useTranslation();
  const format = useFormat();
  const display = data.display;
  const autopilot = display === 'desktop' ? publisher.isDesktopAutoPilot : publisher.isMobileAutoPilot;
  const today = display === 'desktop' ? publisher.desktopTodayImpressions : publisher.mobileTodayImpressions;
  const min =
    display === 'desktop' ? publisher.desktopMinImpressionsToAutoPilot : publisher.mobileMinImpressionsToAutoPilot;
  return (
    <Stack gap="xs" data-testid={`display-${publisher.id}-${display}`}>
      <Group gap="sm">
        <Title order={3} size="h5">
          {t(`adminActivity.display.${display}`)}
        </Title>
        <Badge
          color={autopilot ? 'green' : 'gray'}
          className={autopilot ? classes.pulse : undefined}
          data-testid="mode-indicator"
        >
          {autopilot ? t('adminActivity.autoPilot') : t('adminActivity.balancer')}
        </Badge>
        <Text size="sm" c="dimmed">
          {t('adminActivity.todayOverMin', { today: format.number(today), min: format.number(min) })}
        </Text>
      </Group>
      {data.byAdvertiserShowData.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('adminActivity.noAds')}
        </Text>
      ) : (
        <Text size="xs" c="dimmed" data-testid="card-window">
          {t('adminActivity.cardWindow')}
        </Text>
      )}
      {data.byAdvertiserShowData.map((group, order) => (
        // Two advertisers may share a brand (kept apart by the server): the order tells them apart.
        <Stack key={`${order}|${group.advertiserBrand}`} gap={4}>
          <Group gap="sm">
            <Text fw={600}>{group.advertiserBrand}</Text>
            <Badge variant="light" color="green">
              {t('adminActivity.autopilotShare', { pct: format.percent(group.totalSharePct, 1) })}
            </Badge>
            <Badge variant="light" color="gray">
              {t('adminActivity.balancerShare', {
                pct: format.percent(
                  data.thisDisplayTotalSharePct > 0 ? (group.totalSharePct / data.thisDisplayTotalSharePct) * 100 : 0,
                  1,
                ),
              })}
            </Badge>
          </Group>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
            {group.shows.map((show) => (
              <AdCard key={show.ad.id} show={show} display={display} />
            ))}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}

export function PublisherSections({ publishers }: { publishers: TAdminActivityPublisher[] }) {
  const { t } = useTranslation();
  if (publishers.length === 0) return <Text c="dimmed">{t('adminActivity.noPublishers')}</Text>;
  return (
    <Stack>
      <Group className={classes.anchors} py="xs" gap="md" aria-label={t('adminActivity.publishers')} component="nav">
        {publishers.map((publisher) => (
          <Anchor key={publisher.id} href={`#publisher-${publisher.id}`} size="sm">
            {publisher.brand}
          </Anchor>
        ))}
      </Group>
      {publishers.map((publisher) => (
        <Paper key={publisher.id} withBorder p="md" id={`publisher-${publisher.id}`} component="section">
          <Title order={2} size="h4" mb="sm">
            {publisher.brand} (#{publisher.id})
          </Title>
          <Stack gap="lg">
            {publisher.displayData.map((data) => (
              <DisplayBlock key={data.display} publisher={publisher} data={data} />
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
