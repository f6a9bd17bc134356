import { Badge, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TAdminActivityCampaign } from '@helium/contracts';
import { PauseIcon, PlayIcon } from '../../../app/icons.tsx';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { campaignHeaderColour } from '../utils/campaignHeaderColour.ts';
import { daysToEmptyLabel } from '../utils/daysToEmptyLabel.ts';
import classes from './AdminActivity.module.css';

/** One campaign of Admin: Activity by Advertiser (specification 01, section 2). */
export function CampaignCard({ campaign }: { campaign: TAdminActivityCampaign }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { ex } = campaign;
  const total = ex.stats.total;
  const headerColour = campaignHeaderColour(ex);
  const daysLeft = daysToEmptyLabel(ex.inventory.daysToEmptyImpressions);
  const remainingText = ex.is_cpc
    ? t('adminActivity.remainingClicks', {
        n: format.number(total.remainingClicks),
        pct: format.percent(total.remainingClicksPct, 1),
      })
    : t('adminActivity.remainingImpressions', {
        n: format.number(total.remainingImpressions),
        pct: format.percent(total.remainingImpressionsPct, 1),
      });
  return (
    <Paper
      withBorder
      data-testid={`campaign-card-${campaign.id}`}
      data-showing={ex.isShowing}
      className={ex.isShowing ? undefined : classes.dimmed}
      style={{ overflow: 'hidden' }}
    >
      <Group
        bg={`${headerColour}.1`}
        px="md"
        py="xs"
        justify="space-between"
        data-testid="campaign-header"
        data-colour={headerColour}
      >
        <Text fw={700}>{ex.advertiser.brand}</Text>
        <Badge color={ex.is_cpc ? 'grape' : 'blue'}>
          {ex.is_cpc ? `CPC ${format.euros(ex.cpc)}` : `CPM ${format.euros(ex.cpm)}`}
        </Badge>
      </Group>
      <Stack p="md" gap="xs">
        <Group gap="lg">
          <Text size="sm">
            {t('common.labelValue', { label: t('adminActivity.impressions') })}{' '}
            <b>{format.number(total.impressions)}</b>
          </Text>
          <Text size="sm">
            {t('common.labelValue', { label: t('adminActivity.clicks') })} <b>{format.number(total.clicks)}</b>
          </Text>
          <Text size="sm">
            {t('common.labelValue', { label: t('adminActivity.ctr') })} <b>{format.percent(total.ctr, 2)}</b>
          </Text>
        </Group>
        <Text size="sm" c="dimmed">
          {ex.is_cpc
            ? t('adminActivity.equivalentCpm', { amount: format.euros(total.cpm) })
            : t('adminActivity.equivalentCpc', { amount: format.euros(total.cpc) })}
        </Text>
        <Text size="sm">{remainingText}</Text>
        <Progress
          value={ex.is_cpc ? total.remainingClicksPct : total.remainingImpressionsPct}
          aria-label={remainingText}
        />
        {!ex.is_cpc && !ex.is_owl ? (
          <Group gap="sm">
            <Text size="sm">
              {t('adminActivity.yesterday', { n: format.number(ex.inventory.yesterdayThisCpmCampaignImpressions) })}
            </Text>
            <Badge
              variant="light"
              color={ex.isShowing ? 'green' : 'gray'}
              leftSection={ex.isShowing ? <PlayIcon size={10} /> : <PauseIcon size={10} />}
              data-testid="showing-state"
            >
              {ex.isShowing ? t('adminActivity.showing') : t('adminActivity.paused')}
            </Badge>
            {ex.isShowing ? (
              <Text size="sm" fw={700} c={daysLeft.colour} data-testid="days-to-empty">
                {daysLeft.days === null
                  ? t('adminActivity.emptyInUnknown')
                  : t('adminActivity.emptyIn', { days: format.number(daysLeft.days) })}
              </Text>
            ) : null}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
