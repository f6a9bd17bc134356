import { ActionIcon } from '@mantine/core';
import { ChevronRightIcon } from '../../../app/icons.tsx';

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
      <ChevronRightIcon
        size={14}
        style={{ transform: expanded ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }}
      />
    </ActionIcon>
  );
}

/** Keeps a row without an arrow aligned with those that have one. */
export function ArrowSpace() {
  return <span style={{ display: 'inline-block', width: 'var(--ai-size-sm, 1.75rem)' }} aria-hidden="true" />;
}
