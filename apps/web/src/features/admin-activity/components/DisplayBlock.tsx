import { Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminActivityPublisher } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AdCard } from './AdCard.tsx';
import classes from './AdminActivity.module.css';

/** One display (desktop or mobile) of a publisher: its mode, today's impressions and the ads by advertiser. */
export function DisplayBlock({
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
