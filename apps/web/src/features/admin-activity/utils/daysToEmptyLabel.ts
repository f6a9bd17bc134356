import { daysToEmptyColour, type AlertColour } from '@helium/domain/activity';

export type DaysToEmptyLabel = { days: number | null; colour: AlertColour };

/**
 * What the "Empty in N Days" label shows: the whole days left (rounded down) and the colour of that same
 * number (specification 01, section 9: under 7 red, 7 to 15 orange, over 15 green), so 15.4 days reads
 * "15" in orange. Unknown (no traffic yesterday) stays null and green.
 */
export function daysToEmptyLabel(days: number | null): DaysToEmptyLabel {
  const shown = days === null ? null : Math.floor(days);
  return { days: shown, colour: daysToEmptyColour(shown) };
}
