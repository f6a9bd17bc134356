import { CENTRE, FACE_RADIUS, LABEL_RADIUS, TICK_OUTER } from '../utils/dialGeometry.ts';
import { clockAngle, dialPoint, GAUGE, needleAngle } from '../utils/performance.ts';

/** The dial face: its 21 ticks along the arc from the min to the max position, and the two end values. */
export function DialFace({ min, max }: { min: string; max: string }) {
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
