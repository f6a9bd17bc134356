import {
  createTheme,
  DEFAULT_THEME,
  luminance,
  type DrawerProps,
  type MantineColorsTuple,
  type ModalProps,
  type TableScrollContainerProps,
} from '@mantine/core';

/** WCAG AA contrast for normal text: every coloured text, and white text on every filled colour, reaches it. */
export const AA_CONTRAST = 4.5;

/** The WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(first: string, second: string): number {
  const [lighter, darker] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

const WHITE = '#ffffff';
const LIGHT_PALETTES = Object.entries(DEFAULT_THEME.colors).filter(([name]) => name !== 'dark');
/**
 * Where coloured text is read: white, the grey of striped and hovered rows (gray 0 and 1), and the light red of rows
 * highlighted red (specification 01, Admin Stats).
 */
const TEXT_BACKGROUNDS = [
  WHITE,
  DEFAULT_THEME.colors.gray[0],
  DEFAULT_THEME.colors.gray[1],
  DEFAULT_THEME.colors.red[1],
];

/** `#rrggbb` mixed toward black by `amount` (0 to 1), which keeps its hue. */
function darkenHex(color: string, amount: number): string {
  const channels = [1, 3, 5].map((start) => parseInt(color.slice(start, start + 2), 16));
  return `#${channels
    .map((value) =>
      Math.round(value * (1 - amount))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** The colour darkened in small steps until it reaches `ratio` on every background. */
function darkenUntil(color: string, backgrounds: readonly string[], ratio: number): string {
  for (let amount = 0; amount < 1; amount += 0.01) {
    const candidate = darkenHex(color, amount);
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= ratio)) return candidate;
  }
  return '#000000';
}

/**
 * Mantine's palette with shades 6 to 9 darkened where needed, so that in the light scheme the shades Mantine uses for
 * text, filled and outline variants (6), hover (7) and light-variant text (9) pass WCAG AA on every
 * `TEXT_BACKGROUNDS` (white text on a filled shade too); each darker shade asks a little more, so hover stays visible.
 * Shades 0-5 and the hues are Mantine's: green stays green, orange orange (specification 01's red/orange/green, grey).
 */
export function accessiblePalette(palette: MantineColorsTuple): MantineColorsTuple {
  const shades = [...palette];
  for (let shade = 6; shade <= 9; shade += 1) {
    const ratio = AA_CONTRAST + 0.4 * (shade - 6);
    // Shade 9 is the light variant's text, on the colour's own light backgrounds (shades 1 and 2, hovered).
    const backgrounds = shade === 9 ? [...TEXT_BACKGROUNDS, palette[1], palette[2]] : TEXT_BACKGROUNDS;
    shades[shade] = darkenUntil(palette[shade] ?? palette[9], backgrounds, ratio);
  }
  return shades as unknown as MantineColorsTuple;
}

// `dark` is the dark scheme's palette and the sidebar's background: left as it is.
const ACCESSIBLE_COLORS = Object.fromEntries(
  LIGHT_PALETTES.map(([name, palette]) => [name, accessiblePalette(palette)]),
);

/** The dialogs' close button's name: the catalogue's `common.close`, once i18n/index.ts is loaded. */
let closeButtonLabel: () => string | undefined = () => undefined;

/** Called by i18n/index.ts; the theme itself loads no catalogue, as the sign-in screen needs none. */
export function nameCloseButtons(label: () => string): void {
  closeButtonLabel = label;
}

const closeButtonProps = () => ({ 'aria-label': closeButtonLabel() });

export const theme = createTheme({
  primaryColor: 'violet',
  defaultRadius: 'md',
  fontFamily:
    '"Helium Bitcoin Sign", system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
  colors: ACCESSIBLE_COLORS,
  // Plain objects rather than `Modal.extend(...)` (the same object, typed): `extend` would bring the dialogs and the
  // table into the first chunk of every screen, the sign-in's too.
  components: {
    // Every dialog's close button is named, in the language of the moment: a getter, read at each render.
    Modal: {
      defaultProps: {
        get closeButtonProps() {
          return closeButtonProps();
        },
      } satisfies Partial<ModalProps>,
    },
    Drawer: {
      defaultProps: {
        get closeButtonProps() {
          return closeButtonProps();
        },
      } satisfies Partial<DrawerProps>,
    },
    // A badge says a state ("Not installed", "Newsletters uniquement"): it wraps in a narrow column, never cut to
    // "NOT I..." (issue 36). Its height grows with its lines; long words break only where nothing else fits.
    Badge: {
      styles: {
        root: { height: 'auto', minHeight: 'var(--badge-height)', maxWidth: '100%', overflow: 'visible' },
        label: { whiteSpace: 'normal', overflow: 'visible', overflowWrap: 'break-word', textAlign: 'center' },
      },
    },
    // A table wider than its box scrolls inside it; the scrolling box takes the keyboard focus so that it can be
    // scrolled without a mouse (axe-core's scrollable-region-focusable).
    TableScrollContainer: {
      defaultProps: {
        scrollAreaProps: { viewportProps: { tabIndex: 0 } },
      } satisfies Partial<TableScrollContainerProps>,
    },
  },
});
