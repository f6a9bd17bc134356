import type { TPlacement, TPlacementFields } from '@helium/contracts';
import type { FieldOf } from '../../forms/utils/issues.ts';

/** One placement as the screen edits it: `isDefault` stands for a null selector (the default slot). */
export interface PlacementDraft {
  /** A stable React key (the stored id, or a new one for a placement not saved yet). */
  key: string;
  isDefault: boolean;
  selector: string;
  position: TPlacementFields['position'];
  formatIds: number[];
  device: TPlacementFields['device'];
}

let created = 0;

export function newDraft(): PlacementDraft {
  created += 1;
  return { key: `new-${created}`, isDefault: false, selector: '', position: 'inside', formatIds: [], device: 'all' };
}

export function draftsOf(placements: readonly TPlacement[]): PlacementDraft[] {
  return placements.map((placement) => ({
    key: String(placement.id),
    isDefault: placement.selector === null,
    selector: placement.selector ?? '',
    position: placement.position,
    formatIds: [...placement.formatIds],
    device: placement.device,
  }));
}

/** The list as update-placements takes it, in the screen's order. */
export function requestOf(drafts: readonly PlacementDraft[]): TPlacementFields[] {
  return drafts.map((draft) => ({
    selector: draft.isDefault ? null : draft.selector.trim(),
    position: draft.position,
    formatIds: [...draft.formatIds].sort((a, b) => a - b),
    device: draft.device,
  }));
}

/**
 * The placement an issue of update-placements is about (`placements.2.selector`), as its index in the list: its
 * fields show the error beside its selector.
 */
export const placementFieldOf: FieldOf<string> = (path) => /^placements\.(\d+)(\.|$)/.exec(path)?.[1] ?? null;

/** The publisher's site as the preview frames it, or null without a domain. */
export function sitePreviewUrl(domain: string | null): string | null {
  return domain ? `https://${domain}/` : null;
}
