import { DEFAULT_INSTALL_CHECK_SECONDS } from '@helium/contracts';

/** The progress bar is redrawn this often while the installation is checked (milliseconds). */
export const PROGRESS_TICK_MS = 50;

/** The check's duration in milliseconds: the configured seconds when greater than 0, else the default 5 s. */
export function checkDurationMs(seconds: number | null | undefined): number {
  const valid = typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0;
  return (valid ? seconds : DEFAULT_INSTALL_CHECK_SECONDS) * 1000;
}

/** The bar's percentage after `elapsedMs` of a check lasting `durationMs`, from 0 to 100. */
export function progressPct(elapsedMs: number, durationMs: number): number {
  if (durationMs <= 0) return 100;
  return Math.min(100, Math.max(0, (elapsedMs / durationMs) * 100));
}

/**
 * Whether the check phase is over: the bar has run its time and check-install has answered (a failure counts
 * as an answer: it is only logged). A check still unanswered once the time has run twice over ends the phase
 * anyway, so that a publisher is never left without the instructions.
 */
export function checkPhaseOver(elapsedMs: number, durationMs: number, answered: boolean): boolean {
  if (elapsedMs < durationMs) return false;
  return answered || elapsedMs >= 2 * durationMs;
}

/** Publisher 60 gets only the code-line variant of the French instructions (specification 02, section 2.9). */
export const CODE_LINE_ONLY_PUBLISHER_ID = 60;

export type InstructionsVariant = 'english' | 'frenchTwoOptions' | 'frenchCodeLine';

export function instructionsVariant(language: string | undefined, publisherId: number): InstructionsVariant {
  if (language !== 'fr') return 'english';
  return publisherId === CODE_LINE_ONLY_PUBLISHER_ID ? 'frenchCodeLine' : 'frenchTwoOptions';
}
