import { ctrWindowStartDay } from '@helium/domain';

export interface AdCounts {
  impressions: number;
  clicks: number;
}

const NONE: Readonly<AdCounts> = Object.freeze({ impressions: 0, clicks: 0 });

/**
 * Each ad's validated impressions and unique clicks over the CTR window (docs/decisions.md section 5: today and the
 * 6 days before), kept per day so that the oldest day leaves the sums when a new day starts. Thompson sampling,
 * CTR ranks and their thresholds read the sums.
 */
export class CtrWindow {
  private sums = new Map<number, AdCounts>();
  private days = new Map<string, Map<number, AdCounts>>();

  private start: string;

  constructor(private today: string) {
    this.start = today ? ctrWindowStartDay(today) : '';
  }

  /** Adds counts (negative to undo) to an ad's day; days before the window are ignored. */
  add(day: string, adId: number, impressions: number, clicks: number): void {
    if (day < this.start) return;
    let ads = this.days.get(day);
    if (!ads) this.days.set(day, (ads = new Map()));
    const ofDay = ads.get(adId) ?? { impressions: 0, clicks: 0 };
    ofDay.impressions += impressions;
    ofDay.clicks += clicks;
    ads.set(adId, ofDay);
    const sum = this.sums.get(adId) ?? { impressions: 0, clicks: 0 };
    sum.impressions += impressions;
    sum.clicks += clicks;
    this.sums.set(adId, sum);
  }

  /** Moves the window to end with `today`: the days that fall out of it leave the sums. */
  roll(today: string): void {
    if (today === this.today) return;
    this.today = today;
    this.start = ctrWindowStartDay(today);
    for (const [day, ads] of this.days) {
      if (day >= this.start) continue;
      for (const [adId, counts] of ads) {
        const sum = this.sums.get(adId);
        if (!sum) continue;
        sum.impressions -= counts.impressions;
        sum.clicks -= counts.clicks;
        if (sum.impressions === 0 && sum.clicks === 0) this.sums.delete(adId);
      }
      this.days.delete(day);
    }
  }

  /** An ad's counts over the window. */
  get(adId: number): Readonly<AdCounts> {
    return this.sums.get(adId) ?? NONE;
  }

  /** Every ad with counts in the window. */
  values(): IterableIterator<Readonly<AdCounts>> {
    return this.sums.values();
  }
}
