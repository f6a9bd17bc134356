import '@mantine/dates/styles.css';
import 'dayjs/locale/fr';
import { useState } from 'react';
import { Button, CloseButton, Group, Popover, Stack } from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';
import { isoDay } from '@helium/domain/format';
import classes from './DateRangeControl.module.css';

/** The statistics' date range: a two-month picker in a popover, and a button back to all dates. */
export function DateRangeControl({
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
              classNames={{ levelsGroup: classes.levelsGroup }}
              ariaLabels={{
                previousMonth: t('common.calendar.previousMonth'),
                nextMonth: t('common.calendar.nextMonth'),
                previousYear: t('common.calendar.previousYear'),
                nextYear: t('common.calendar.nextYear'),
                previousDecade: t('common.calendar.previousDecade'),
                nextDecade: t('common.calendar.nextDecade'),
              }}
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
