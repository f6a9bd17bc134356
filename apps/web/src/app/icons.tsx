import type { CSSProperties, ReactNode } from 'react';

/**
 * The app's small icons, drawn as inline SVG in the text's colour: no icon font to load, and no emoji or symbol
 * character that a font may lack (issue 36: a pause sign shown as an empty box). Each is decoration unless given a
 * `label`, which makes it an image with that name. Unit test: icons.test.ts (no emoji left in the screens' code).
 */
export interface IconProps {
  /** The icon's accessible name; without one it is hidden from assistive technologies. */
  label?: string;
  /** Width and height in px (16 by default). */
  size?: number;
  style?: CSSProperties;
}

function Icon({ label, size = 16, style, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      focusable="false"
      style={style}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
    >
      {children}
    </svg>
  );
}

export function InfoIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 8h.01" />
    </Icon>
  );
}

export function LockIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V7a4 4 0 0 1 8 0v4" />
    </Icon>
  );
}

export function FlaskIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M9 3h6M10 3v6l-5 9a2 2 0 0 0 2 3h10a2 2 0 0 0 2-3l-5-9V3" />
    </Icon>
  );
}

/** Showing: a right-pointing triangle. */
export function PlayIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M7 4.5v15l12-7.5z" fill="currentColor" />
    </Icon>
  );
}

/** Paused: two bars. */
export function PauseIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="6" y="4.5" width="4" height="15" rx="1" fill="currentColor" stroke="none" />
      <rect x="14" y="4.5" width="4" height="15" rx="1" fill="currentColor" stroke="none" />
    </Icon>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M5 12.5l4.5 4.5L19 7.5" strokeWidth={3} />
    </Icon>
  );
}

export function CrossIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M6.5 6.5l11 11M17.5 6.5l-11 11" strokeWidth={3} />
    </Icon>
  );
}

/** Waiting: a clock face. */
export function ClockIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="8" strokeWidth={2.5} />
      <path d="M12 7.5V12l3 2" strokeWidth={2.5} />
    </Icon>
  );
}

/** Not yet decided: an empty circle. */
export function CircleIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <circle cx="12" cy="12" r="7" strokeWidth={2.5} />
    </Icon>
  );
}

/** A chevron pointing up (a menu that opens upwards). */
export function ChevronUpIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M6 15l6-6 6 6" />
    </Icon>
  );
}

/** A chevron pointing right (rotate it 90° for "expanded"). */
export function ChevronRightIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M9 6l6 6-6 6" />
    </Icon>
  );
}
