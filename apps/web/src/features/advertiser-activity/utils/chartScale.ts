/**
 * The top of a chart axis: the smallest "round" number (1, 2, 2.5 or 5 times a power of ten) at or above
 * `value`, so that its four tick steps read well; 1 for an empty axis.
 */
export function niceMax(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= value) ?? 10;
  return step * power;
}

/** `count` + 1 evenly spaced ticks from 0 to `max`. */
export function ticks(max: number, count = 4): number[] {
  return Array.from({ length: count + 1 }, (_, index) => (max * index) / count);
}

/** Which of `length` points get a label on the x axis: at most `most`, evenly spread, the last one always. */
export function labelledIndexes(length: number, most = 6): number[] {
  if (length <= most) return Array.from({ length }, (_, index) => index);
  const every = Math.ceil((length - 1) / (most - 1));
  const indexes = Array.from({ length: Math.ceil(length / every) }, (_, index) => index * every);
  if (indexes.at(-1) !== length - 1) {
    if (length - 1 - indexes.at(-1)! < every / 2) indexes.pop();
    indexes.push(length - 1);
  }
  return indexes;
}
