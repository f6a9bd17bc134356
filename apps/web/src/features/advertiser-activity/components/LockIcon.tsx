import { ICON_SVG_PROPS } from '../utils/iconSvgProps.ts';

export function LockIcon({ label }: { label: string }) {
  return (
    <svg {...ICON_SVG_PROPS} role="img" aria-label={label}>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}
