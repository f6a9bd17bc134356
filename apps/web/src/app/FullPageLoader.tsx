import { Center } from '@mantine/core';
import { DelayedLoader } from './DelayedLoader.tsx';

/**
 * Before a screen's code and the user's language are there (the catalogue's `common.loading` in English, the
 * language every visit starts in): the first chunk of the app loads no catalogue.
 */
export const LOADING_LABEL = 'Loading…';

export function FullPageLoader({ label = LOADING_LABEL }: { label?: string }) {
  return (
    <Center mih="100vh" role="status" aria-label={label}>
      <DelayedLoader />
    </Center>
  );
}
