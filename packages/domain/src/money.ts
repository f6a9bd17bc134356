/** Money is stored as integer micro-euros: 1 EUR = 1,000,000. Never floats for stored amounts. */
export type Micros = number;

export const MICROS_PER_EURO = 1_000_000;

/** Converts a decimal euro amount typed by a person (e.g. "2.50") into micro-euros, exactly. */
export function eurosToMicros(euros: string | number): Micros {
  const text = typeof euros === 'number' ? euros.toFixed(6) : euros.trim().replace(',', '.');
  const match = /^(-)?(\d+)(?:\.(\d{0,6})\d*)?$/.exec(text);
  if (!match) throw new RangeError(`Not a euro amount: ${String(euros)}`);
  const [, minus, whole = '0', fraction = ''] = match;
  const micros = Number(whole) * MICROS_PER_EURO + Number(fraction.padEnd(6, '0'));
  if (!Number.isSafeInteger(micros)) throw new RangeError(`Euro amount too large: ${String(euros)}`);
  return minus ? -micros : micros;
}

/** Micro-euros to euros, for display only. */
export function microsToEuros(micros: Micros | bigint): number {
  return Number(micros) / MICROS_PER_EURO;
}

/** Micro-euros to euros rounded to the cent, as a screen's figures show them: 2_345_678 -> 2.35. */
export function microsToCentEuros(micros: Micros): number {
  return Math.round(micros / (MICROS_PER_EURO / 100)) / 100;
}

/** Share of an amount by basis points (7000 = 70%), rounded down so that shares never exceed the whole. */
export function shareOf(micros: Micros, basisPoints: number): Micros {
  return Math.floor((micros * basisPoints) / 10_000);
}
