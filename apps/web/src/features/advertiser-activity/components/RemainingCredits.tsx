import { Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { useFormat } from '../../format/hooks/useFormat.ts';

/** The clicks or impressions the campaign has left, as a number and a bar (red once it is finished). */
export function RemainingCredits({ campaign }: { campaign: TCampaignEx }) {
  const { t } = useTranslation();
  const format = useFormat();
  const total = campaign.stats.total;
  const creditsPct = campaign.is_cpc ? total.remainingClicksPct : total.remainingImpressionsPct;
  return (
    <Stack gap={2} miw={220}>
      <Text size="sm" data-testid="credits-text">
        {campaign.is_cpc
          ? t('activity.remainingClicks', {
              count: total.remainingClicks,
              n: format.number(total.remainingClicks),
            })
          : t('activity.remainingImpressions', {
              count: total.remainingImpressions,
              n: format.number(total.remainingImpressions),
            })}
      </Text>
      <Progress value={creditsPct} color={campaign.isFinished ? 'red' : 'teal'} aria-label={t('activity.credits')} />
    </Stack>
  );
}
