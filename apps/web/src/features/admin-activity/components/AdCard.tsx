import { Anchor, Badge, Group, Image, Paper, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminActivityShow } from '@helium/contracts';
import { ctrRankColour, fileSizeKb } from '@helium/domain/activity';
import { useFormat } from '../../format/hooks/useFormat.ts';
import classes from './AdminActivity.module.css';

export type Display = 'desktop' | 'mobile';

/** One ad as the engine shows it on one display of a publisher: its figures, rank and share. */
export function AdCard({ show, display }: { show: TAdminActivityShow; display: Display }) {
  const { t } = useTranslation();
  const format = useFormat();
  // Decided by the server on the unrounded share; share_pct is rounded to the 2 decimals shown.
  const faded = show.is_faded;
  const impressions = display === 'desktop' ? show.desktop_impressions : show.mobile_impressions;
  const clicks = display === 'desktop' ? show.desktop_clicks : show.mobile_clicks;
  const rank = display === 'desktop' ? show.desktopRank : show.mobileRank;
  const media = show.ad.type === 'video' ? show.ad.mp4 : show.ad.image;
  const thumbnail = show.ad.preview ?? (show.ad.type === 'video' ? show.ad.poster : show.ad.image);
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
          {t('common.labelValue', { label: t('adminActivity.impressions') })} {format.number(impressions)} ·{' '}
          {t('common.labelValue', { label: t('adminActivity.clicks') })} {format.number(clicks)}
        </Text>
        <Text
          size="xs"
          fw={700}
          c={show.ctrRankStr ? ctrRankColour(show.ctrRankStr) : undefined}
          data-testid="current-ctr"
        >
          {t('common.labelValue', { label: t('adminActivity.ctr') })} {format.percent(show.current_ctr, 2)}
        </Text>
        {rank !== null ? <Text size="xs">{t('adminActivity.weightRank', { rank })}</Text> : null}
        <Progress value={show.share_pct} size="sm" aria-label={t('adminActivity.share')} />
        <Text size="xs">
          {t('common.labelValue', { label: t('adminActivity.share') })} {format.percent(show.share_pct, 2)}
        </Text>
      </Stack>
    </Paper>
  );
}
