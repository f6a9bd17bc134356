import { Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignAd } from '@helium/contracts';
import { isNewsletterFormat } from '@helium/domain';
import { DelayedLoader } from '../../../app/DelayedLoader.tsx';
import { useFormat } from '../../format/hooks/useFormat.ts';

export function ShareBar({ ad, stale }: { ad: TCampaignAd; stale: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (stale || ad.sharePct === null) return <DelayedLoader size="xs" aria-label={t('activity.shareComputing')} />;
  const pct = ad.isShowing ? ad.sharePct : 0;
  const text = format.percent(pct, 1);
  const newsletter = ad.isOwlOnly || isNewsletterFormat(ad.format_id);
  return (
    <Tooltip label={t(newsletter ? 'activity.shareTooltipNewsletters' : 'activity.shareTooltipWeb', { pct: text })}>
      <Stack gap={2} miw={72}>
        <Text size="xs">{text}</Text>
        <Progress value={pct} size="sm" color="teal" aria-label={t('activity.shareLabel')} />
      </Stack>
    </Tooltip>
  );
}
