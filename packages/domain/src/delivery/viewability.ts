import { HOUR_MS } from '../time.ts';

/**
 * A validated impression (docs/decisions.md section 4): at least 50% of the ad in view for 1 continuous second, 2 s
 * for a video, once it has rendered. The publisher script measures it and sends the view beacon then; it starts
 * counting only once the decision's answer has arrived, so a genuine beacon comes at the earliest this long after
 * its decision. An earlier one was not measured by the script (a program replaying the token at once).
 */
export const MIN_VIEW_MS = { image: 1_000, video: 2_000 } as const;

/** The share of the ad's pixels that must be in view (the IAB/MRC display rule) for the view time to run. */
export const MIN_IN_VIEW_RATIO = 0.5;

/**
 * How long a click of the same visitor on the same ad counts once: a second click within this window is a repeat,
 * shown but not billed (docs/decisions.md section 4).
 */
export const UNIQUE_CLICK_MS = HOUR_MS;

/** Whether a view beacon `elapsedMs` after its decision can be the script's, for an ad shown as `kind`. */
export function isTooEarlyForAView(elapsedMs: number, kind: 'image' | 'video'): boolean {
  return elapsedMs < MIN_VIEW_MS[kind];
}
