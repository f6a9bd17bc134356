import { lazy, Suspense, useState } from 'react';
import { Button, CloseButton, Group, Loader, Popover, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TCampaignEx } from '@helium/contracts';

/** The calendars (Mantine's dates and dayjs, 13 KB) load when the picker first opens, or is about to. */
const loadRangeCalendar = () => import('./RangeCalendar.tsx');
const RangeCalendar = lazy(loadRangeCalendar);

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
  const { t } = useTranslation();
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
          <Button
            variant="default"
            onClick={() => open(!opened)}
            onPointerEnter={() => void loadRangeCalendar()}
            onFocus={() => void loadRangeCalendar()}
            data-testid="date-range"
          >
            {campaign.statsDateRangeStr ?? t('activity.allDates')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          {/* Select comes with the calendars, never before them. */}
          <Suspense fallback={<Loader size="sm" m="xl" aria-label={t('common.loading')} />}>
            <Stack>
              <RangeCalendar value={value} onChange={setValue} defaultDate={stored[0] ?? undefined} />
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
          </Suspense>
        </Popover.Dropdown>
      </Popover>
      {stored.length > 0 ? (
        <CloseButton aria-label={t('activity.clearDates')} onClick={() => onPick([null, null])} />
      ) : null}
    </Group>
  );
}
