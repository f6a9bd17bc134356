import { ICON_SVG_PROPS } from '../utils/iconSvgProps.ts';

export function InfoIcon({ label }: { label: string }) {
  return (
    <svg {...ICON_SVG_PROPS} role="img" aria-label={label}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </svg>
  );
}
