/** What the Activity screen's small inline icons share (inline SVG: no icon font to load). */
export const ICON_SVG_PROPS = {
  width: 16,
  height: 16,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 2,
};
