import { useEffect, useState } from 'react';
import { useInterval } from '@mantine/hooks';
import { isRefreshPaused, REFRESH_EVERY_TICKS, REFRESH_TICK_MS } from '../utils/logic.ts';

export interface ActivityRefreshOptions {
  /** Reads the campaign again. */
  refetch: () => Promise<unknown>;
  modalOpen: boolean;
  activationPending: boolean;
  hasDateRange: boolean;
}

/**
 * The campaign's auto-refresh (specification 02, section 9): a tick every second, the campaign read again every
 * fifth tick, paused by isRefreshPaused. It owns the two pause reasons nothing else needs: whether the AutoFlow
 * menu and the date picker are open, which the screen reports through the returned setters.
 */
export function useActivityRefresh({ refetch, modalOpen, activationPending, hasDateRange }: ActivityRefreshOptions) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [datePickerOpen, setDatePickerOpen] = useState(false);
  const paused = isRefreshPaused({ modalOpen, menuOpen, datePickerOpen, activationPending, hasDateRange });

  const [ticks, setTicks] = useState(0);
  const interval = useInterval(() => setTicks((count) => count + 1), REFRESH_TICK_MS);
  useEffect(() => {
    if (paused) interval.stop();
    else interval.start();
    return interval.stop;
  }, [paused, interval]);
  useEffect(() => {
    if (ticks > 0 && ticks % REFRESH_EVERY_TICKS === 0) void refetch();
    // Only a new tick reads the campaign again, whatever else changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ticks]);

  return { setMenuOpen, setDatePickerOpen };
}
