import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME, type MantineColorsTuple } from '@mantine/core';
import { AA_CONTRAST, accessiblePalette, contrastRatio, theme } from './theme.ts';

const WHITE = '#ffffff';
const { gray, red } = DEFAULT_THEME.colors;
const colours = Object.entries(theme.colors ?? {}) as Array<[string, MantineColorsTuple]>;

describe('contrastRatio', () => {
  it('gives the WCAG ratios', () => {
    expect(contrastRatio('#000000', WHITE)).toBeCloseTo(21, 5);
    expect(contrastRatio(WHITE, WHITE)).toBe(1);
    // The findings: Mantine's dimmed grey and filled green on white.
    expect(contrastRatio('#868e96', WHITE)).toBeCloseTo(3.32, 2);
    expect(contrastRatio(WHITE, '#40c057')).toBeCloseTo(2.36, 2);
  });
});

describe('the theme', () => {
  it('replaces every light palette, not the dark one', () => {
    expect(colours.map(([name]) => name).sort()).toEqual(
      Object.keys(DEFAULT_THEME.colors)
        .filter((name) => name !== 'dark')
        .sort(),
    );
  });

  it.each(colours)('%s: text, filled and outline shades pass WCAG AA on white, greys and the red highlight', (_, p) => {
    for (const shade of [6, 7, 8, 9] as const) {
      for (const background of [WHITE, gray[0], gray[1], red[1]]) {
        expect(contrastRatio(p[shade], background)).toBeGreaterThanOrEqual(AA_CONTRAST);
      }
    }
  });

  it.each(colours)('%s: light-variant text (shade 9) passes on its own light backgrounds', (_, palette) => {
    expect(contrastRatio(palette[9], palette[1])).toBeGreaterThanOrEqual(AA_CONTRAST);
    expect(contrastRatio(palette[9], palette[2])).toBeGreaterThanOrEqual(AA_CONTRAST);
  });

  it.each(colours)('%s: each shade from 6 on is darker than the one before (hover shows)', (_, palette) => {
    for (const [lighter, darker] of [
      [6, 7],
      [7, 8],
      [8, 9],
    ] as const) {
      expect(contrastRatio(palette[darker], WHITE)).toBeGreaterThan(contrastRatio(palette[lighter], WHITE));
    }
  });

  it('keeps shades 0 to 5 and any shade that already passes', () => {
    const violet = accessiblePalette(DEFAULT_THEME.colors.violet);
    expect(violet.slice(0, 6)).toEqual(DEFAULT_THEME.colors.violet.slice(0, 6));
    expect(accessiblePalette(DEFAULT_THEME.colors.gray)[7]).toBe(gray[7]);
  });

  it('darkens, keeping the hue, what does not pass (green stays green)', () => {
    const green = accessiblePalette(DEFAULT_THEME.colors.green)[6];
    expect(green).not.toBe(DEFAULT_THEME.colors.green[6]);
    const [r, g, b] = [1, 3, 5].map((start) => parseInt(green.slice(start, start + 2), 16)) as [number, number, number];
    expect(g).toBeGreaterThan(r);
    expect(g).toBeGreaterThan(b);
  });
});
