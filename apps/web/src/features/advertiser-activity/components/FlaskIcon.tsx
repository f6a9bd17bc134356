import { ICON_SVG_PROPS } from '../utils/iconSvgProps.ts';

export function FlaskIcon() {
  return (
    <svg {...ICON_SVG_PROPS} aria-hidden="true">
      <path d="M9 3h6M10 3v6l-5 9a2 2 0 0 0 2 3h10a2 2 0 0 0 2-3l-5-9V3" />
    </svg>
  );
}
