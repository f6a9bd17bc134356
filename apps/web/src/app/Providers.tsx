import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { theme } from './theme.ts';

/**
 * What every screen needs, the sign-in's too. The signed-in screens add their server data (QueryClientProvider,
 * app/signedIn.tsx) and their catalogue (i18n/index.ts) when they load.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}
