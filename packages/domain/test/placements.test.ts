import { describe, expect, it } from 'vitest';
import { DEFAULT_PLACEMENT, placementsFor, type Placement } from '../src/delivery/index.ts';

const placement = (overrides: Partial<Placement>): Placement => ({
  selector: '.slot',
  position: 'inside',
  formatIds: [],
  device: 'all',
  ...overrides,
});

describe('placementsFor', () => {
  it('gives a publisher without stored placements the default placement, on any device', () => {
    expect(placementsFor([], 'desktop')).toEqual([DEFAULT_PLACEMENT]);
    expect(placementsFor([], 'mobile')).toEqual([DEFAULT_PLACEMENT]);
    expect(DEFAULT_PLACEMENT).toMatchObject({ selector: null, formatIds: [], device: 'all' });
  });

  it("keeps the placements of the visitor's device and of all devices, in their stored order", () => {
    const top = placement({ selector: '#top', device: 'desktop', formatIds: [4] });
    const side = placement({ selector: '.side', position: 'after' });
    const phone = placement({ selector: '#phone', device: 'mobile', formatIds: [3] });
    expect(placementsFor([top, side, phone], 'desktop')).toEqual([top, side]);
    expect(placementsFor([top, side, phone], 'mobile')).toEqual([side, phone]);
  });

  it('leaves out a vertical-only placement on mobile, not one that also accepts other formats', () => {
    const vertical = placement({ formatIds: [1] });
    const mixed = placement({ formatIds: [1, 3] });
    expect(placementsFor([vertical, mixed], 'mobile')).toEqual([mixed]);
    expect(placementsFor([vertical, mixed], 'desktop')).toEqual([vertical, mixed]);
  });

  it('gives none (not the default) when every stored placement is for the other device', () => {
    expect(placementsFor([placement({ device: 'desktop' })], 'mobile')).toEqual([]);
  });

  it('keeps a stored default placement (no selector) beside selector placements', () => {
    const stored = [placement({ selector: null }), placement({ selector: '.side' })];
    expect(placementsFor(stored, 'mobile')).toEqual(stored);
  });
});
