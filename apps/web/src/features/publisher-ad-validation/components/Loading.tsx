import { Loader, Stack, Text } from '@mantine/core';
import { useSpinnerDelay } from '../../../app/DelayedLoader.tsx';
import { PUBLISHER_AD_VALIDATION_TEXTS as T } from '../utils/publisherAdValidationTexts.ts';

/** Shown once loading has lasted 1 s (specification 02, section 9), so a quick answer shows nothing. */
export function Loading() {
  const shown = useSpinnerDelay();
  if (!shown) return null;
  return (
    <Stack gap="xs" align="center" role="status">
      <Loader size="sm" aria-hidden="true" />
      <Text>{T.loading}</Text>
    </Stack>
  );
}
