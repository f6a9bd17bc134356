import { useEffect, useState } from 'react';
import { checkInstallCall, type TGetInstallationDataResponse } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { checkDurationMs, checkPhaseOver, PROGRESS_TICK_MS, progressPct } from '../utils/installCheck.ts';

export type Check = { phase: 'checking' | 'done'; pct: number };

/**
 * The check phase (specification 02, sections 2.9 and 4): check-install runs while a progress bar fills for
 * publisherInstallCheckTimout seconds (redrawn every 50 ms); the phase ends, and the instructions appear, once
 * the time is up and the check has answered (checkPhaseOver). What it answers is not shown: it only ends the
 * bar. A failed check is only logged.
 */
export function useInstallCheck(data: TGetInstallationDataResponse | undefined): Check {
  const [check, setCheck] = useState<Check>({ phase: 'checking', pct: 0 });
  const durationMs = data ? checkDurationMs(data.publisherInstallCheckTimout) : null;
  const publisherId = data?.publisher.id;
  useEffect(() => {
    if (durationMs === null || publisherId === undefined) return;
    let answered = false;
    let full = false;
    const start = performance.now();
    setCheck({ phase: 'checking', pct: 0 });
    const tick = window.setInterval(() => {
      const elapsed = performance.now() - start;
      // The bar is drawn full for one redraw before the instructions replace it.
      if (full && checkPhaseOver(elapsed, durationMs, answered)) {
        window.clearInterval(tick);
        setCheck({ phase: 'done', pct: 100 });
        return;
      }
      const pct = progressPct(elapsed, durationMs);
      full = pct >= 100;
      setCheck({ phase: 'checking', pct });
    }, PROGRESS_TICK_MS);
    apiPost(checkInstallCall)
      .catch((error: unknown) => console.error('check-install failed', error))
      .finally(() => (answered = true));
    return () => window.clearInterval(tick);
  }, [durationMs, publisherId]);
  return check;
}
