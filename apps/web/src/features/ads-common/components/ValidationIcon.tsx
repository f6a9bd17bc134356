import { ThemeIcon, Tooltip } from '@mantine/core';

const LOOK: Record<number, { color: string; symbol: string }> = {
  0: { color: 'gray', symbol: '○' },
  1: { color: 'green', symbol: '✓' },
  2: { color: 'red', symbol: '✕' },
  3: { color: 'orange', symbol: '◷' },
};

/** A validation state code as an icon: 0 grey (yellow variant for publishers), 1 green check, 2 red cross, 3 orange clock. */
export function ValidationIcon({ state, label, yellow = false }: { state: number; label: string; yellow?: boolean }) {
  const look = LOOK[state] ?? LOOK[0]!;
  return (
    <Tooltip label={label}>
      <ThemeIcon
        color={state === 0 && yellow ? 'yellow' : look.color}
        variant={state === 0 ? 'light' : 'filled'}
        radius="xl"
        size="md"
        role="img"
        aria-label={label}
        data-state={state}
      >
        <span aria-hidden="true">{look.symbol}</span>
      </ThemeIcon>
    </Tooltip>
  );
}
