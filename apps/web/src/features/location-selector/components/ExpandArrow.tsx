import { ActionIcon } from '@mantine/core';

export interface ExpandArrowProps {
  expanded: boolean;
  /** The place's name, for the button's label ("Expand France"). */
  label: string;
  controls: string;
  onToggle: () => void;
}

/** The arrow that shows or hides a country's regions or a region's cities: a button of its own. */
export function ExpandArrow({ expanded, label, controls, onToggle }: ExpandArrowProps) {
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="sm"
      aria-label={label}
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
    >
      <svg
        width="14"
        height="14"
        viewBox="0 0 16 16"
        aria-hidden="true"
        focusable="false"
        style={{ transform: expanded ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}
      >
        <path d="M6 4l4 4-4 4" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" />
      </svg>
    </ActionIcon>
  );
}

/** Keeps a row without an arrow aligned with those that have one. */
export function ArrowSpace() {
  return <span style={{ display: 'inline-block', width: 'var(--ai-size-sm, 1.75rem)' }} aria-hidden="true" />;
}
