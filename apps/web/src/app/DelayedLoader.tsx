import { useEffect, useState } from 'react';
import { Loader, type LoaderProps } from '@mantine/core';

/** A spinner appears only once loading has lasted this long (specification 02, section 9). */
export const SPINNER_DELAY_MS = 1000;

/** False during the first `delayMs` after the caller mounts, then true. */
export function useSpinnerDelay(delayMs: number = SPINNER_DELAY_MS): boolean {
  const [elapsed, setElapsed] = useState(delayMs <= 0);
  useEffect(() => {
    if (delayMs <= 0) return;
    const timer = window.setTimeout(() => setElapsed(true), delayMs);
    return () => window.clearTimeout(timer);
  }, [delayMs]);
  return elapsed;
}

/**
 * Mantine's Loader, rendered only after `delayMs` (1 s by default) so quick loads show no spinner;
 * `delayMs={0}` shows it at once. Pass the accessibility props (aria-label, role) as to Loader.
 */
export function DelayedLoader({ delayMs = SPINNER_DELAY_MS, ...props }: LoaderProps & { delayMs?: number }) {
  const elapsed = useSpinnerDelay(delayMs);
  return elapsed ? <Loader {...props} /> : null;
}
