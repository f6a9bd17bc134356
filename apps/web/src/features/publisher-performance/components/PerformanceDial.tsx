import { Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../format/hooks/useFormat.ts';
import { dialPct, GAUGE } from '../utils/performance.ts';
import { DialFace } from './DialFace.tsx';
import { DialNeedle } from './DialNeedle.tsx';

/**
 * One live dial (specification 02 section 9's gauge): the needle at `value` on a scale of 0 to `max`, with
 * the value and its label below. Announced as a meter (name, value and scale) to assistive technologies.
 */
export function PerformanceDial({
  label,
  value,
  max,
  testId,
}: {
  label: string;
  value: number;
  max: number;
  testId: string;
}) {
  const { t } = useTranslation();
  const f = useFormat();
  const valueText = f.number(value);
  return (
    <Paper
      withBorder
      p="md"
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-valuetext={valueText}
      data-testid={testId}
    >
      <Stack align="center" gap={4}>
        <svg
          width={GAUGE.size}
          height={GAUGE.size}
          viewBox={`0 0 ${GAUGE.size} ${GAUGE.size}`}
          aria-hidden
          data-testid="dial-face"
        >
          <DialFace min={f.number(0)} max={f.number(max)} />
          <DialNeedle pct={dialPct(value, max)} />
        </svg>
        <Text component="span" fw={700} size="xl" data-testid="dial-value">
          {valueText}
        </Text>
        <Text size="sm" fw={500} ta="center" data-testid="dial-label">
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          {t('performance.dialMax', { max: f.number(max) })}
        </Text>
      </Stack>
    </Paper>
  );
}
