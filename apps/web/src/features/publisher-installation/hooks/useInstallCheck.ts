import { useCallback, useEffect, useState } from 'react';
import { checkInstallCall, type TCheckInstallResponse, type TGetInstallationDataResponse } from '@helium/contracts';
import { apiPost } from '../../../api/client.ts';
import { checkDurationMs, checkPhaseOver, PROGRESS_TICK_MS, progressPct } from '../utils/installCheck.ts';

/** What the check found: its answer, or that it failed or did not answer in time (`unknown`). */
export type CheckResult = { found: TCheckInstallResponse } | { unknown: true };

export type Check = { phase: 'checking'; pct: number } | { phase: 'done'; pct: 100; result: CheckResult };

/**
 * The check phase (specification 02, sections 2.9 and 4): check-install runs while a progress bar fills for
 * publisherInstallCheckTimout seconds (redrawn every 50 ms); the phase ends, and the result and the instructions
 * appear, once the time is up and the check has answered (checkPhaseOver). A failed check is logged and its result
 * is unknown. `recheck` runs the phase again.
 */
export function useInstallCheck(data: TGetInstallationDataResponse | undefined): Check & { recheck: () => void } {
  const [check, setCheck] = useState<Check>({ phase: 'checking', pct: 0 });
  const [attempt, setAttempt] = useState(0);
  const durationMs = data ? checkDurationMs(data.publisherInstallCheckTimout) : null;
  const publisherId = data?.publisher.id;
  useEffect(() => {
    if (durationMs === null || publisherId === undefined) return;
    let answer: CheckResult | null = null;
    let full = false;
    const start = performance.now();
    setCheck({ phase: 'checking', pct: 0 });
    const tick = window.setInterval(() => {
      const elapsed = performance.now() - start;
      // The bar is drawn full for one redraw before the result replaces it.
      if (full && checkPhaseOver(elapsed, durationMs, answer !== null)) {
        window.clearInterval(tick);
        setCheck({ phase: 'done', pct: 100, result: answer ?? { unknown: true } });
        return;
      }
      const pct = progressPct(elapsed, durationMs);
      full = pct >= 100;
      setCheck({ phase: 'checking', pct });
    }, PROGRESS_TICK_MS);
    apiPost(checkInstallCall).then(
      (found) => (answer = { found }),
      (error: unknown) => {
        console.error('check-install failed', error);
        answer = { unknown: true };
      },
    );
    return () => window.clearInterval(tick);
  }, [durationMs, publisherId, attempt]);
  const recheck = useCallback(() => setAttempt((count) => count + 1), []);
  return { ...check, recheck };
}
