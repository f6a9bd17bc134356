import type { ReactNode } from 'react';
import { Menu } from '@mantine/core';
import { CheckMark } from './CheckMark.tsx';

interface ChoiceProps {
  label: string;
  current: boolean;
  onChoose: () => void;
  rightSection?: ReactNode;
  ariaLabel?: string;
}

/** One selectable menu item; the one in use carries a check mark and aria-current. */
export function Choice({ label, current, onChoose, rightSection, ariaLabel }: ChoiceProps) {
  return (
    <Menu.Item
      leftSection={<CheckMark visible={current} />}
      rightSection={rightSection}
      aria-label={ariaLabel}
      aria-current={current ? 'true' : undefined}
      data-typeahead-label={label}
      fw={current ? 600 : undefined}
      onClick={onChoose}
    >
      {label}
    </Menu.Item>
  );
}
