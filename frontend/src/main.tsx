import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { startErrorReporting } from './app/errorReporting';
import { Providers } from './app/Providers';
import { installRequestChain } from './app/requestChain';
import { createAppRouter } from './app/router';
import { createI18n } from './i18n';

createI18n();
const router = createAppRouter();
installRequestChain({ navigate: (to) => void router.navigate(to) });
void startErrorReporting();

const container = document.getElementById('root');
if (!container) {
  throw new Error('index.html has no #root element');
}
createRoot(container).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
