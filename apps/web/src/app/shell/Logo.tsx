import { Group, Text } from '@mantine/core';

export const PRODUCT_NAME = 'Helium Ads';

interface LogoProps {
  /** Text colour; the mark keeps its own colours. */
  color?: string;
  size?: 'sm' | 'md' | 'lg';
}

const MARK_SIZE = { sm: 24, md: 30, lg: 40 } as const;
const TEXT_SIZE = { sm: 'md', md: 'lg', lg: 'xl' } as const;

/** A helium balloon mark and the product name. The name is the accessible text; the mark is decoration. */
export function Logo({ color, size = 'md' }: LogoProps) {
  const mark = MARK_SIZE[size];
  return (
    <Group gap={8} wrap="nowrap">
      <svg width={mark} height={mark} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <circle cx="16" cy="13" r="11" fill="#7950f2" />
        <circle cx="12.5" cy="9.5" r="3" fill="#ffffff" opacity="0.35" />
        <path d="M14 23.5h4l-2 3z" fill="#7950f2" />
        <path d="M16 26.5c-1.5 1.5 1.5 2.5 0 4" stroke="#adb5bd" strokeWidth="1.2" fill="none" />
        <text x="16" y="17" textAnchor="middle" fontSize="10" fontWeight="700" fill="#ffffff" fontFamily="sans-serif">
          He
        </text>
      </svg>
      <Text component="span" fw={700} size={TEXT_SIZE[size]} c={color}>
        {PRODUCT_NAME}
      </Text>
    </Group>
  );
}
