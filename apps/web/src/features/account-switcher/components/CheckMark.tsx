import { Box } from '@mantine/core';
import { CheckIcon } from '../../../app/icons.tsx';

/** The switcher's check mark; it keeps its room when hidden so that every item's label lines up. */
export function CheckMark({ visible }: { visible: boolean }) {
  return (
    <Box w={16} h={16} aria-hidden="true">
      {visible && <CheckIcon />}
    </Box>
  );
}
