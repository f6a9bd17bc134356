import { ThemeIcon, Tooltip } from '@mantine/core';
import type { ComponentType } from 'react';
import { CheckIcon, CircleIcon, ClockIcon, CrossIcon, type IconProps } from '../../../app/icons.tsx';

const LOOK: Record<number, { color: string; Symbol: ComponentType<IconProps> }> = {
  0: { color: 'gray', Symbol: CircleIcon },
  1: { color: 'green', Symbol: CheckIcon },
  2: { color: 'red', Symbol: CrossIcon },
  3: { color: 'orange', Symbol: ClockIcon },
};

/** A validation state code as an icon: 0 grey (yellow variant for publishers), 1 green check, 2 red cross, 3 orange clock. */
export function ValidationIcon({ state, label, yellow = false }: { state: number; label: string; yellow?: boolean }) {
  const { color, Symbol } = LOOK[state] ?? LOOK[0]!;
  return (
    <Tooltip label={label}>
      <ThemeIcon
        color={state === 0 && yellow ? 'yellow' : color}
        variant={state === 0 ? 'light' : 'filled'}
        radius="xl"
        size="md"
        role="img"
        aria-label={label}
        data-state={state}
      >
        <Symbol size={14} />
      </ThemeIcon>
    </Tooltip>
  );
}
