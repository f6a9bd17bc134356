import { Box } from '@mantine/core';

const BAR_HEIGHT = 10;

/** A horizontal bar of `pct` percent of the cell's width, in segments (validated, then missing). */
export function HistoryBar({ segments, testId }: { segments: { pct: number; color: string }[]; testId: string }) {
  return (
    <Box style={{ flex: 1, minWidth: 80, display: 'flex', height: BAR_HEIGHT }} aria-hidden data-testid={testId}>
      {segments.map((segment, index) =>
        segment.pct > 0 ? (
          <Box key={index} h={BAR_HEIGHT} w={`${segment.pct}%`} bg={segment.color} data-pct={segment.pct.toFixed(1)} />
        ) : null,
      )}
    </Box>
  );
}
