import { SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TGetRealtimePerformanceResponse } from '@helium/contracts';
import { PerformanceDial } from './PerformanceDial.tsx';

/** The four live dials; the two impressions dials share the larger of their maxima. */
export function Dials({ realtime }: { realtime: TGetRealtimePerformanceResponse }) {
  const { t } = useTranslation();
  const impressionsMax = Math.max(realtime.impressionsDesktopPerMinuteMax, realtime.impressionsMobilePerMinuteMax);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} data-testid="performance-dials">
      <PerformanceDial
        testId="dial-pageviews-desktop"
        label={t('performance.pageviewsDesktopPerMinute')}
        value={realtime.pageviewsDesktopPerMinute}
        max={realtime.pageviewsDesktopPerMinuteMax}
      />
      <PerformanceDial
        testId="dial-pageviews-mobile"
        label={t('performance.pageviewsMobilePerMinute')}
        value={realtime.pageviewsMobilePerMinute}
        max={realtime.pageviewsMobilePerMinuteMax}
      />
      <PerformanceDial
        testId="dial-impressions-desktop"
        label={t('performance.impressionsDesktopPerMinute')}
        value={realtime.impressionsDesktopPerMinute}
        max={impressionsMax}
      />
      <PerformanceDial
        testId="dial-impressions-mobile"
        label={t('performance.impressionsMobilePerMinute')}
        value={realtime.impressionsMobilePerMinute}
        max={impressionsMax}
      />
    </SimpleGrid>
  );
}
