import { useEffect, useState } from 'react';
import { ActionIcon, Menu, Slider, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { AUTOFLOW_STEP, autoFlowDays, autoFlowMax } from '@helium/domain/activity';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { FlaskIcon } from '../../../app/icons.tsx';

/** The AutoFlow daily cap: a slider in a menu, with the days the remaining impressions then last. */
export function AutoFlowMenu({
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
