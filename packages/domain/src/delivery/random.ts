/** A source of uniform numbers in [0, 1). Selection takes one as a parameter so that tests can fix it. */
export type Random = () => number;

/** A small seeded generator (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A standard normal sample (Box-Muller). */
export function sampleNormal(random: Random): number {
  let u = 0;
  while (u === 0) u = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** A Gamma(shape, 1) sample (Marsaglia and Tsang; shape < 1 boosted). */
export function sampleGamma(shape: number, random: Random): number {
  if (shape <= 0) throw new RangeError('Gamma shape must be positive');
  if (shape < 1) {
    let u = 0;
    while (u === 0) u = random();
    return sampleGamma(shape + 1, random) * Math.pow(u, 1 / shape);
  }
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = sampleNormal(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (u < 1 - 0.0331 * x * x * x * x) return d * v;
    if (u > 0 && Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A Beta(a, b) sample. */
export function sampleBeta(a: number, b: number, random: Random): number {
  const x = sampleGamma(a, random);
  const y = sampleGamma(b, random);
  return x + y === 0 ? 0.5 : x / (x + y);
}

/** Picks an index with probability proportional to its weight; -1 when every weight is 0. */
export function pickWeighted(weights: readonly number[], random: Random): number {
  let total = 0;
  for (const weight of weights) total += weight > 0 ? weight : 0;
  if (total <= 0) return -1;
  let point = random() * total;
  let last = -1;
  for (let index = 0; index < weights.length; index++) {
    const weight = weights[index] ?? 0;
    if (weight <= 0) continue;
    last = index;
    if (point < weight) return index;
    point -= weight;
  }
  return last;
}
