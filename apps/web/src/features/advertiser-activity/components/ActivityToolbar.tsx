import { Button, Group, Switch } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { totalsCsv } from '../utils/activityCsv.ts';
import { downloadCsv } from '../utils/csv.ts';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { AutoFlowMenu } from './AutoFlowMenu.tsx';
import { ByCountryAction } from './ByCountryAction.tsx';
import { DateRangeControl } from './DateRangeControl.tsx';
import { RemainingCredits } from './RemainingCredits.tsx';

export interface ActivityToolbarProps {
  campaign: TCampaignEx;
  byPublisher: boolean;
  onByPublisherChange: (byPublisher: boolean) => void;
  onPickRange: (range: [string | null, string | null]) => void;
  onDatePickerOpenChange: (open: boolean) => void;
  onAutoFlowMenuOpenChange: (open: boolean) => void;
  onAutoPilotChange: (isAutoPilot: boolean) => void;
  onAutoFlowChange: (pauseDailyImpressions: number) => void;
  onOpenByUrl: () => void;
  onOpenAddCredits: () => void;
}

/** The controls above the figures: dates, modes, pacing, credits left, and the export. */
export function ActivityToolbar(props: ActivityToolbarProps) {
  const { campaign } = props;
  const { t } = useTranslation();
  const format = useFormat();
  const exportTotals = () =>
    downloadCsv(`campaign-${campaign.hashId}.csv`, totalsCsv(campaign, t('activity.totalLine'), format));
  return (
    <Group gap="sm" wrap="wrap" align="center">
      <DateRangeControl campaign={campaign} onOpenChange={props.onDatePickerOpenChange} onPick={props.onPickRange} />
      <Switch
        label={t('activity.byPublisher')}
        checked={props.byPublisher}
        onChange={(event) => props.onByPublisherChange(event.currentTarget.checked)}
      />
      <Button variant="default" onClick={props.onOpenByUrl}>
        {t('activity.byUrl')}
      </Button>
      <ByCountryAction campaign={campaign} />
      {campaign.isAutoPilotVisible ? (
        <Switch
          label={t('activity.autoPilot')}
          checked={campaign.isAutoPilot}
          onChange={(event) => props.onAutoPilotChange(event.currentTarget.checked)}
        />
      ) : null}
      <AutoFlowMenu
        campaign={campaign}
        onOpenChange={props.onAutoFlowMenuOpenChange}
        onChange={props.onAutoFlowChange}
      />
      <RemainingCredits campaign={campaign} />
      <Button onClick={props.onOpenAddCredits}>{t('activity.add')}</Button>
      <Button variant="subtle" onClick={exportTotals}>
        {t('activity.exportCsv')}
      </Button>
    </Group>
  );
}
