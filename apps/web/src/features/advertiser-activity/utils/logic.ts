import type { TCampaignEx } from '@helium/contracts';

/** Auto-refresh (specification 02, section 9): a 1 s tick, the campaign reloaded every 5 ticks. */
export const REFRESH_TICK_MS = 1000;
export const REFRESH_EVERY_TICKS = 5;
/** The drawer of ejected ads is 500 px high when open. */
export const DRAWER_HEIGHT_PX = 500;

export interface RefreshBlockers {
  modalOpen: boolean;
  menuOpen: boolean;
  datePickerOpen: boolean;
  activationPending: boolean;
  hasDateRange: boolean;
}

/** Auto-refresh is paused while a modal, the menu, the date picker or an activation change is open, or a range is set. */
export function isRefreshPaused(blockers: RefreshBlockers): boolean {
  return Object.values(blockers).some(Boolean);
}

/** By-publisher mode on first load: on for trial campaigns, off otherwise. */
export function initialByPublisher(campaign: Pick<TCampaignEx, 'isTrial'>): boolean {
  return campaign.isTrial;
}

/** The "see it live" link: the participating page with the campaign and ad hash ids as hcid and haid. */
export function liveLink(pageUrl: string, campaignHashId: string, adHashId: string): string {
  const url = new URL(pageUrl);
  url.searchParams.set('hcid', campaignHashId);
  url.searchParams.set('haid', adHashId);
  return url.toString();
}

/** The date range as update-stats-ex takes it: null when cleared, one day, or two days. */
export function rangeToSend(range: [string | null, string | null]): string | [string, string] | null {
  const [from, to] = range;
  if (!from) return null;
  if (!to || to === from) return from;
  return [from, to];
}
