import type { Device } from './eligibility.ts';

import { isMobileCompatible } from '../ads.ts';

/** Where ads go on a publisher's pages (`publisher_placements`). */
export interface Placement {
  /** CSS selector of the element the ad goes into or next to; null = the default placement. */
  selector: string | null;
  position: 'inside' | 'before' | 'after';
  /** Accepted format ids; empty = any web format. */
  formatIds: readonly number[];
  device: 'all' | Device;
}

/**
 * The default placement, which works on any page: an empty `[data-helium-slot]` element when the page has
 * one, else a fixed corner box. A publisher that stored no placement gets this one alone.
 */
export const DEFAULT_PLACEMENT: Placement = { selector: null, position: 'inside', formatIds: [], device: 'all' };

/**
 * The placements the script fills on one pageview of this device, in their stored order: the publisher's
 * placements for this device (or for all devices), leaving out those that accept only formats this device
 * never shows (a vertical-only placement on mobile). A publisher without any stored placement gets the
 * default placement; one whose placements are all for the other device gets none.
 */
export function placementsFor(stored: readonly Placement[], device: Device): Placement[] {
  if (stored.length === 0) return [DEFAULT_PLACEMENT];
  return stored.filter((placement) => {
    if (placement.device !== 'all' && placement.device !== device) return false;
    if (device === 'mobile' && placement.formatIds.length > 0) {
      return placement.formatIds.some(isMobileCompatible);
    }
    return true;
  });
}
