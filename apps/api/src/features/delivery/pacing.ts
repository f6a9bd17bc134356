import type { CounterSnapshot } from './ad-index.ts';
import { addTo, type CountHold } from './credits.ts';
import { CtrWindow, type AdCounts } from './ctr-window.ts';

/** A day's counts not yet durable: impressions per campaign and per display, [impressions, clicks] per ad. */
interface UnwrittenDay {
  campaigns: Map<number, number>;
  displays: Map<string, number>;
  ads: Map<number, [number, number]>;
}

function addToPair(counters: Map<number, [number, number]>, key: number, first: number, second: number) {
  const [a, b] = counters.get(key) ?? [0, 0];
  if (a + first === 0 && b + second === 0) counters.delete(key);
  else counters.set(key, [a + first, b + second]);
}

/** A counted event as pacing sees it: its UTC day, where it was shown, and what it cost the ad. */
export interface PacedEvent {
  day: string;
  campaignId: number;
  adId: number;
  /** displayKey of the impression's display; null for a click (the daily figures count impressions). */
  display: string | null;
  impressions: 0 | 1;
  clicks: 0 | 1;
  /** Cost plus trial cost, against the ad's budget. */
  spent: number;
}

/**
 * What pacing decides by, in this process: today's validated impressions per campaign (the AutoFlow daily cap) and
 * per display (Balancer or AutoPilot), each ad's spend (its budget) and each ad's impressions and unique clicks over
 * the CTR window (AutoPilot, CTR ranks). Loaded from the daily summaries at start and at each new day, then moved
 * by what is counted. Counts not yet durable are kept by the day they were counted on, so that a reload adds them
 * back, and a view counted just before midnight and written after it does not count against the new day's cap.
 */
export class Pacing {
  /** The UTC day the counters are for. */
  today = '';
  private campaignToday = new Map<number, number>();
  private displayToday = new Map<string, number>();
  private ctrWindow = new CtrWindow('');
  private adSpent = new Map<number, number>();
  private unwrittenByDay = new Map<string, UnwrittenDay>();
  private unwrittenAdSpend = new Map<number, number>();

  /** Replaces the counters with the database's for `day`, adding back what is counted and not yet written. */
  load(day: string, counters: Omit<CounterSnapshot, 'recentUniqueClicks'>): void {
    this.today = day;
    this.campaignToday = counters.campaignToday;
    this.displayToday = counters.displayToday;
    this.ctrWindow = new CtrWindow(day);
    for (const row of counters.adDays) this.ctrWindow.add(row.day, row.adId, row.impressions, row.clicks);
    for (const [unwrittenDay, unwritten] of this.unwrittenByDay) {
      for (const [adId, [impressions, clicks]] of unwritten.ads) {
        this.ctrWindow.add(unwrittenDay, adId, impressions, clicks);
      }
      if (unwrittenDay !== day) continue;
      for (const [campaignId, impressions] of unwritten.campaigns) addTo(this.campaignToday, campaignId, impressions);
      for (const [display, impressions] of unwritten.displays) addTo(this.displayToday, display, impressions);
    }
    this.adSpent = counters.adSpent;
    for (const [adId, spent] of this.unwrittenAdSpend) addTo(this.adSpent, adId, spent);
  }

  /** Day change: today's counters restart from zero. Forward only (a request may have read the clock before an await). */
  rollDay(day: string): void {
    if (day <= this.today) return;
    this.today = day;
    this.campaignToday.clear();
    this.displayToday.clear();
    this.ctrWindow.roll(day);
  }

  campaignImpressionsToday(campaignId: number): number {
    return this.campaignToday.get(campaignId) ?? 0;
  }

  displayImpressionsToday(display: string): number {
    return this.displayToday.get(display) ?? 0;
  }

  spentOf(adId: number): number {
    return this.adSpent.get(adId) ?? 0;
  }

  ctrOf(adId: number): Readonly<AdCounts> {
    return this.ctrWindow.get(adId);
  }

  ctrValues(): IterableIterator<Readonly<AdCounts>> {
    return this.ctrWindow.values();
  }

  /** Counts an event now; its hold undoes it if the batch fails. */
  count(event: PacedEvent): CountHold {
    this.apply(event, 1);
    this.unwritten(event, 1);
    return { undo: () => this.apply(event, -1), settled: () => this.unwritten(event, -1) };
  }

  /** An event set_aside_traffic reversed (it was written): it leaves the counters. */
  reverse(event: PacedEvent): void {
    this.apply(event, -1);
  }

  private apply(event: PacedEvent, sign: 1 | -1) {
    // Undone after midnight, today's counters are the new day's: yesterday's figure is no longer kept.
    if (event.day === this.today && event.impressions) {
      addTo(this.campaignToday, event.campaignId, sign);
      if (event.display) addTo(this.displayToday, event.display, sign);
    }
    this.ctrWindow.add(event.day, event.adId, sign * event.impressions, sign * event.clicks);
    addTo(this.adSpent, event.adId, sign * event.spent);
  }

  private unwritten(event: PacedEvent, sign: 1 | -1) {
    const day = this.unwrittenByDay.get(event.day) ?? { campaigns: new Map(), displays: new Map(), ads: new Map() };
    if (event.impressions) {
      addTo(day.campaigns, event.campaignId, sign);
      if (event.display) addTo(day.displays, event.display, sign);
    }
    addToPair(day.ads, event.adId, sign * event.impressions, sign * event.clicks);
    if (day.campaigns.size + day.displays.size + day.ads.size > 0) this.unwrittenByDay.set(event.day, day);
    else this.unwrittenByDay.delete(event.day);
    addTo(this.unwrittenAdSpend, event.adId, sign * event.spent);
  }

  /** Figures of the store shared by several instances, copied here for selection (shared/shared-billing.ts). */
  setShared(figures: { campaignId: number; today: number } | { adId: number; spent: number }): void {
    if ('campaignId' in figures) this.campaignToday.set(figures.campaignId, figures.today);
    else this.adSpent.set(figures.adId, figures.spent);
  }

  /** Read-only views for the admin's activity call and the tests. */
  views() {
    return {
      campaignToday: this.campaignToday as ReadonlyMap<number, number>,
      displayToday: this.displayToday as ReadonlyMap<string, number>,
      ctrWindow: this.ctrWindow as Pick<CtrWindow, 'get' | 'values'>,
    };
  }
}
