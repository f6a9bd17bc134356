import { Box, Stack } from '@mantine/core';

/** Grey bars standing for a publisher's text around the previewed ad. */
export function FakeText({ lines }: { lines: number }) {
  return (
    <Stack gap={6} aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <Box key={i} h={8} bg="gray.2" w={i === lines - 1 ? '60%' : '100%'} style={{ borderRadius: 4 }} />
      ))}
    </Stack>
  );
}
