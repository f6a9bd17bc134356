/*
 * Numbers typed by a person, as the decimals they typed. A JSON number arrives as a double; its shortest decimal
 * text (what `String` gives, without the exponent) is the number as typed, so it is counted and scaled as text,
 * never through floating-point rounding (`toFixed`, `Math.round(x * 100)`).
 */

/** The decimal text of a finite number, without exponent: 1e-7 -> "0.0000001", 1e21 -> "1000000000000000000000". */
export function decimalText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const digits = `${whole}${fraction}`;
  // Where the decimal point falls in `digits` once the exponent is applied.
  const point = whole.length + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** How many decimals a number was written with: 2.5 -> 1, 0.001 -> 3, 1e-7 -> 7, 12 -> 0. */
export function decimalPlaces(value: number): number {
  const fraction = decimalText(value).split('.')[1] ?? '';
  return fraction.length;
}

/**
 * A number in units of 10^-decimals, exactly: (2.35, 2) -> 235, (0.000001, 6) -> 1. A number with more decimals
 * than that, or whose units are not a safe integer, throws (validate first: `decimalPlaces`).
 */
export function decimalUnits(value: number, decimals: number): number {
  const [whole = '0', fraction = ''] = decimalText(value).split('.');
  if (fraction.length > decimals) throw new RangeError(`${value} has more than ${decimals} decimals`);
  const units = Number(`${whole}${fraction.padEnd(decimals, '0')}`);
  if (!Number.isSafeInteger(units)) throw new RangeError(`${value} is too large`);
  return units;
}

/**
 * A number as the text of a NUMERIC column with `scale` decimals, exactly: (0.92, 8) -> "0.92000000". A number
 * with more decimals than the scale throws (validate first).
 */
export function scaledDecimal(value: number, scale: number): string {
  const [whole = '0', fraction = ''] = decimalText(value).split('.');
  if (fraction.length > scale) throw new RangeError(`${value} has more than ${scale} decimals`);
  return scale === 0 ? whole : `${whole}.${fraction.padEnd(scale, '0')}`;
}
