import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorOverlay } from '../components/overlays/ErrorOverlay';
import { queryClient } from './queryClient';
import { cssVariablesResolver, theme } from './theme';

/** App-wide providers; the toast container and the error overlay live outside the router. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <QueryClientProvider client={queryClient}>
        <Notifications position="top-right" data-testid="toast-container" />
        {children}
        <ErrorOverlay />
      </QueryClientProvider>
    </MantineProvider>
  );
}
