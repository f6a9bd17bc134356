/** An axis from 0: `ticks` evenly spaced by `step` up to `max`, and the decimals its labels need. */
export interface Axis {
  max: number;
  step: number;
  ticks: number[];
  /** The fewest decimals that write every tick exactly (1.25 as "1.25", not "1.3"). */
  decimals: number;
}

/** The "round" steps an axis may take, times a power of ten. */
const STEP_FACTORS = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
const MAX_DECIMALS = 6;

/** `factor` times ten to the `exponent`, without the binary error of 3 * 0.1 (0.30000000000000004). */
function scaled(factor: number, exponent: number): number {
  return exponent >= 0 ? factor * 10 ** exponent : factor / 10 ** -exponent;
}

/** The fewest decimals that write `value` exactly (up to 6). */
export function decimalsOf(value: number): number {
  for (let decimals = 0; decimals < MAX_DECIMALS; decimals += 1) {
    const shifted = value * 10 ** decimals;
    if (Math.abs(shifted - Math.round(shifted)) < 1e-9 * Math.max(1, Math.abs(shifted))) return decimals;
  }
  return MAX_DECIMALS;
}

/**
 * The axis for values up to `value` in `steps` equal steps (the same number on every axis of a chart, so that they
 * share their grid lines), each a round number; whole numbers only for counts (`whole`), at least 1 then.
 */
export function niceAxis(value: number, steps = 4, { whole = false } = {}): Axis {
  const wanted = value > 0 ? value / steps : whole ? 1 : 0.25;
  const exponent = Math.floor(Math.log10(wanted));
  const step =
    STEP_FACTORS.map((factor) => scaled(factor, exponent)).find(
      (candidate) => candidate >= wanted - 1e-12 && (!whole || Number.isInteger(candidate)),
    ) ?? scaled(10, exponent);
  const ticks = Array.from({ length: steps + 1 }, (_, index) => Number((index * step).toPrecision(12)));
  return { max: ticks[steps]!, step, ticks, decimals: decimalsOf(step) };
}

/** Which of `length` points get a label on the x axis: `most` at most, evenly spread, the first and last included. */
export function labelledIndexes(length: number, most = 6): number[] {
  const count = Math.max(1, Math.min(length, Math.floor(most)));
  if (count === 1) return length > 0 ? [length - 1] : [];
  return Array.from({ length: count }, (_, index) => Math.round((index * (length - 1)) / (count - 1)));
}

/**
 * How many x-axis labels `labelWidth` px wide fit on a plot `plotWidth` px wide with `length` evenly spaced points,
 * `gap` px apart at least: each label sits on its point, and rounding to a point may bring two closer by one point's
 * spacing.
 */
export function labelCount(plotWidth: number, labelWidth: number, length: number, gap = 12): number {
  if (length <= 1) return length;
  const pointSpacing = plotWidth / (length - 1);
  let count = Math.min(length, 2);
  while (count < length && plotWidth / count - pointSpacing >= labelWidth + gap) count += 1;
  return plotWidth - pointSpacing >= labelWidth + gap ? count : 1;
}

/** About how wide a text of `characters` is at `fontSize` px (a generous average for digits and Latin letters). */
export function textWidth(characters: number, fontSize: number): number {
  return Math.ceil(characters * fontSize * 0.62);
}
