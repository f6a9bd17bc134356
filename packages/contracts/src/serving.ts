import type { Placement } from '@helium/domain/delivery/placements';

/**
 * The decision's answer (`GET /serve/d`), as the engine sends it and the publisher script reads it. A type
 * only: the script imports it with `import type`, so nothing of this package reaches publishers' pages.
 */
export interface ServedAd {
  /**
   * Where it goes: a CSS selector and how (the script skips the ad when the page has no such element), or
   * null for the default placement (an empty `[data-helium-slot]`, else a fixed corner box).
   */
  selector: string | null;
  position: Placement['position'];
  kind: 'image' | 'video';
  src: string;
  poster: string | null;
  width: number;
  height: number;
  /** The click URL (/c/<token>) and the view token for the beacon. */
  click: string;
  view: string;
}

export interface DecisionAnswer {
  ads: ServedAd[];
}
