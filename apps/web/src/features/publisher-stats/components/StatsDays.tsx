import { Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TStatsDay } from '@helium/contracts';
import { Pages } from '../../../app/Pages.tsx';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { newestFirst, pageOfDays } from '../utils/statsDays.ts';
import { StatsDayCard } from './StatsDayCard.tsx';

/**
 * The days, newest first, `STATS_DAYS_PER_PAGE` a page, each folded to its totals but the newest, which opens
 * with the screen (docs/decisions.md, "Publisher Stats in pages").
 */
export function StatsDays({ days }: { days: readonly TStatsDay[] }) {
  const { t } = useTranslation();
  const format = useFormat();
  const sorted = newestFirst(days);
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(sorted.slice(0, 1).map((d) => d.day)));
  const shown = pageOfDays(sorted, page);
  const toggle = (day: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(day)) next.add(day);
      return next;
    });
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid="stats-days-shown" aria-live="polite">
          {t('publisherStats.showingDays', {
            first: format.number(shown.first),
            last: format.number(shown.last),
            total: format.number(shown.total),
          })}
        </Text>
        <Pages label={t('publisherStats.pages')} pages={shown.pages} page={shown.page} onChange={setPage} />
      </Group>
      {shown.days.map((day) => (
        <StatsDayCard key={day.day} day={day} expanded={expanded.has(day.day)} onToggle={toggle} />
      ))}
    </Stack>
  );
}
