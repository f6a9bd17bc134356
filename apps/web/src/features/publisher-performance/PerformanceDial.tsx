import { useEffect, useState } from 'react';
import { Paper, Stack, Text } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../format/useFormat.ts';
import { clockAngle, dialPct, dialPoint, GAUGE, needleAngle, wiggledPct } from './performance.ts';

const CENTRE = GAUGE.size / 2;
const FACE_RADIUS = GAUGE.size / 2 - 4;
const TICK_OUTER = FACE_RADIUS - 6;
const LABEL_RADIUS = FACE_RADIUS - 22;

/** The dial face: its 21 ticks along the arc from the min to the max position, and the two end values. */
function Face({ min, max }: { min: string; max: string }) {
  const ticks = Array.from({ length: GAUGE.ticks }, (_, index) => {
    const angle = needleAngle((index / (GAUGE.ticks - 1)) * 100);
    const major = index % 5 === 0;
    const outer = dialPoint(angle, TICK_OUTER);
    const inner = dialPoint(angle, TICK_OUTER - (major ? 12 : 6));
    return (
      <line
        key={index}
        x1={outer.x}
        y1={outer.y}
        x2={inner.x}
        y2={inner.y}
        stroke="var(--mantine-color-gray-6)"
        strokeWidth={major ? 2 : 1}
      />
    );
  });
  const minAt = dialPoint(clockAngle(GAUGE.minLabelPosition), LABEL_RADIUS);
  const maxAt = dialPoint(clockAngle(GAUGE.maxLabelPosition), LABEL_RADIUS);
  return (
    <>
      <circle
        cx={CENTRE}
        cy={CENTRE}
        r={FACE_RADIUS}
        fill="var(--mantine-color-body)"
        stroke="var(--mantine-color-gray-4)"
      />
      {ticks}
      <text x={minAt.x} y={minAt.y} textAnchor="middle" fontSize={11} fill="var(--mantine-color-dimmed)">
        {min}
      </text>
      <text x={maxAt.x} y={maxAt.y} textAnchor="middle" fontSize={11} fill="var(--mantine-color-dimmed)">
        {max}
      </text>
    </>
  );
}

/** The needle at a position of the scale, wiggling every 200 ms unless the user asked for less motion. */
function Needle({ pct }: { pct: number }) {
  const reduceMotion = useReducedMotion();
  const [shown, setShown] = useState(pct);
  useEffect(() => {
    setShown(pct);
    if (reduceMotion || pct <= 0) return undefined;
    const timer = setInterval(() => setShown(wiggledPct(pct)), GAUGE.wiggleMs);
    return () => clearInterval(timer);
  }, [pct, reduceMotion]);
  const tip = dialPoint(needleAngle(shown), TICK_OUTER - 4);
  return (
    <>
      <line
        x1={CENTRE}
        y1={CENTRE}
        x2={tip.x}
        y2={tip.y}
        stroke="var(--mantine-color-red-7)"
        strokeWidth={3}
        strokeLinecap="round"
        style={{ transition: `all ${GAUGE.wiggleMs}ms linear` }}
      />
      <circle cx={CENTRE} cy={CENTRE} r={6} fill="var(--mantine-color-dark-6)" />
    </>
  );
}

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
          <Face min={f.number(0)} max={f.number(max)} />
          <Needle pct={dialPct(value, max)} />
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
