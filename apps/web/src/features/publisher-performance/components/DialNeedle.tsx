import { useEffect, useState } from 'react';
import { useReducedMotion } from '@mantine/hooks';
import { CENTRE, TICK_OUTER } from '../utils/dialGeometry.ts';
import { dialPoint, GAUGE, needleAngle, wiggledPct } from '../utils/performance.ts';

/** The needle at a position of the scale, wiggling every 200 ms unless the user asked for less motion. */
export function DialNeedle({ pct }: { pct: number }) {
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
