/** Small inline icons of the Activity screen (no icon font to load). */
const base = { width: 16, height: 16, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2 };

export function FlaskIcon() {
  return (
    <svg {...base} aria-hidden="true">
      <path d="M9 3h6M10 3v6l-5 9a2 2 0 0 0 2 3h10a2 2 0 0 0 2-3l-5-9V3" />
    </svg>
  );
}

export function LockIcon({ label }: { label: string }) {
  return (
    <svg {...base} role="img" aria-label={label}>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </svg>
  );
}

export function InfoIcon({ label }: { label: string }) {
  return (
    <svg {...base} role="img" aria-label={label}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </svg>
  );
}
