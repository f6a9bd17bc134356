import type { Device } from './eligibility.ts';
import { seededRandom, type Random } from './random.ts';
import { utcDayNumber } from '../time.ts';

/*
 * The traffic model shared by the traffic simulator (scripts/simulate) and the demo seed's 30 days of
 * history (packages/db/src/seed/history.ts): who visits (device mix, bots), how many (daily volume curve),
 * what they do with an ad (viewability, a CTR spread per ad, leads). Pure and deterministic for a seed.
 */

export interface TrafficModel {
  /** Share of pageviews from mobile devices. */
  mobileShare: number;
  /** Share of served ads that stay in view long enough to be validated, per device. */
  viewRate: Record<Device, number>;
  /** Lowest and highest CTR an ad can have (per validated impression); spread log-uniformly between. */
  ctrRange: readonly [number, number];
  /** CTR multiplier on mobile. */
  mobileCtrFactor: number;
  /** Share of unique clicks that a visitor clicks again within the hour (counted, not billed). */
  repeatClickRate: number;
  /** Share of clicks that convert into a lead reported by the advertiser's pixel or postback. */
  leadRate: number;
  /** Share of pageviews from known bots, kept aside as invalid. */
  botShare: number;
  /** Relative volume of each weekday, Sunday first. */
  weekdayFactor: readonly number[];
  /** Relative volume of each UTC hour of the day (sums to 24). */
  hourFactor: readonly number[];
  /** Growth of the daily volume over 30 days (0.2 = +20% from the first day to the last). */
  growthOver30Days: number;
  /** Day-to-day noise on the volume (standard deviation of the multiplier). */
  dailyNoise: number;
}

const HOURS = [
  0.35, 0.25, 0.2, 0.18, 0.2, 0.3, 0.55, 0.9, 1.2, 1.35, 1.4, 1.45, 1.5, 1.45, 1.4, 1.4, 1.35, 1.35, 1.4, 1.5, 1.55,
  1.4, 1.0, 0.65,
];
const HOURS_TOTAL = HOURS.reduce((sum, value) => sum + value, 0);

export const DEFAULT_TRAFFIC_MODEL: TrafficModel = {
  mobileShare: 0.45,
  viewRate: { desktop: 0.72, mobile: 0.58 },
  ctrRange: [0.001, 0.02],
  mobileCtrFactor: 0.8,
  repeatClickRate: 0.05,
  leadRate: 0.08,
  botShare: 0.03,
  weekdayFactor: [0.7, 1.05, 1.1, 1.1, 1.05, 1.0, 0.75],
  hourFactor: HOURS.map((value) => (value * 24) / HOURS_TOTAL),
  growthOver30Days: 0.2,
  dailyNoise: 0.08,
};

/** A stable 32-bit hash of a few integers (for per-ad and per-day draws independent of call order). */
export function mixSeed(...parts: number[]): number {
  let hash = 0x811c9dc5;
  for (const part of parts) {
    hash = Math.imul(hash ^ (part | 0), 0x01000193) >>> 0;
    hash = Math.imul(hash ^ (hash >>> 15), 0x2c1b3c6d) >>> 0;
  }
  return hash >>> 0;
}

/**
 * The CTR of an ad (clicks per validated impression) on a device: log-uniform in the model's range, drawn
 * from the ad id, so the simulator and the seeded history give each ad the same appeal.
 */
export function adCtr(adId: number, device: Device, model: TrafficModel = DEFAULT_TRAFFIC_MODEL): number {
  const [low, high] = model.ctrRange;
  const draw = seededRandom(mixSeed(adId, 0x0c7))();
  const ctr = low * Math.pow(high / low, draw);
  return device === 'mobile' ? ctr * model.mobileCtrFactor : ctr;
}

/** Desktop or mobile for one visit. */
export function drawDevice(random: Random, model: TrafficModel = DEFAULT_TRAFFIC_MODEL): Device {
  return random() < model.mobileShare ? 'mobile' : 'desktop';
}

/** Whether a visit comes from a known bot. */
export function drawBot(random: Random, share: number = DEFAULT_TRAFFIC_MODEL.botShare): boolean {
  return random() < share;
}

/** Whether a served ad is viewed (validated) on this device. */
export function drawView(random: Random, device: Device, model: TrafficModel = DEFAULT_TRAFFIC_MODEL): boolean {
  return random() < model.viewRate[device];
}

/** Whether a viewed ad is clicked. */
export function drawClick(
  random: Random,
  adId: number,
  device: Device,
  model: TrafficModel = DEFAULT_TRAFFIC_MODEL,
): boolean {
  return random() < adCtr(adId, device, model);
}

/** Whether a click leads to a conversion. */
export function drawLead(random: Random, model: TrafficModel = DEFAULT_TRAFFIC_MODEL): boolean {
  return random() < model.leadRate;
}

/**
 * The volume multiplier of a day (about 1 on average): weekday pattern, slow growth towards today and a
 * little deterministic noise. `daysAgo` 0 is today; `seed` separates publishers.
 */
export function dailyVolumeFactor(
  day: Date,
  daysAgo: number,
  seed: number,
  model: TrafficModel = DEFAULT_TRAFFIC_MODEL,
): number {
  const weekday = model.weekdayFactor[day.getUTCDay()] ?? 1;
  const growth = 1 + model.growthOver30Days * ((30 - Math.min(30, Math.max(0, daysAgo))) / 30 - 0.5);
  const random = seededRandom(mixSeed(seed, utcDayNumber(day.getTime())));
  const noise = 1 + model.dailyNoise * (random() * 2 - 1) * 1.7;
  return Math.max(0.05, weekday * growth * noise);
}

/** The share of a day's traffic in one UTC minute (the hour's factor spread evenly over its minutes). */
export function minuteShare(minute: Date, model: TrafficModel = DEFAULT_TRAFFIC_MODEL): number {
  return (model.hourFactor[minute.getUTCHours()] ?? 1) / 24 / 60;
}

/** A binomial draw (normal approximation above 50 trials); deterministic for a seeded `random`. */
export function drawCount(random: Random, trials: number, probability: number): number {
  if (trials <= 0 || probability <= 0) return 0;
  if (probability >= 1) return trials;
  if (trials <= 50) {
    let count = 0;
    for (let trial = 0; trial < trials; trial++) if (random() < probability) count++;
    return count;
  }
  const mean = trials * probability;
  const deviation = Math.sqrt(mean * (1 - probability));
  let u = 0;
  while (u === 0) u = random();
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return Math.min(trials, Math.max(0, Math.round(mean + deviation * normal)));
}

/** What one display (publisher, device) of one ad did in a day, drawn from the model. */
export interface DailyAdFigures {
  served: number;
  impressions: number;
  clicks: number;
  allClicks: number;
  leads: number;
}

/** Draws a day's figures for an ad served `served` times on a device. */
export function drawDailyAdFigures(
  random: Random,
  adId: number,
  device: Device,
  served: number,
  model: TrafficModel = DEFAULT_TRAFFIC_MODEL,
): DailyAdFigures {
  const impressions = drawCount(random, served, model.viewRate[device]);
  const clicks = drawCount(random, impressions, adCtr(adId, device, model));
  const allClicks = clicks + drawCount(random, clicks, model.repeatClickRate);
  const leads = drawCount(random, clicks, model.leadRate);
  return { served, impressions, clicks, allClicks, leads };
}

/**
 * Splits a whole number over weights (largest remainders), so the parts add up to it exactly: a day's
 * figures spread over pages, minutes or ads stay consistent with the day's totals.
 */
export function splitInteger(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((acc, weight) => acc + Math.max(0, weight), 0);
  if (total <= 0 || sum <= 0) return weights.map(() => 0);
  const exact = weights.map((weight) => (Math.max(0, weight) / sum) * total);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((acc, part) => acc + part, 0);
  const order = exact
    .map((value, index) => ({ index, rest: value - Math.floor(value) }))
    .sort((a, b) => b.rest - a.rest);
  for (let position = 0; left > 0 && order.length > 0; position = (position + 1) % order.length, left--) {
    const index = order[position]?.index ?? 0;
    parts[index] = (parts[index] ?? 0) + 1;
  }
  return parts;
}
