import { Box } from '@mantine/core';

/** The switcher's check mark; it keeps its room when hidden so that every item's label lines up. */
export function CheckMark({ visible }: { visible: boolean }) {
  return (
    <Box w={16} h={16} aria-hidden="true">
      {visible && (
        <svg width="16" height="16" viewBox="0 0 16 16" focusable="false">
          <path d="M3 8.5l3 3 7-7" stroke="currentColor" strokeWidth="2" fill="none" strokeLinecap="round" />
        </svg>
      )}
    </Box>
  );
}
