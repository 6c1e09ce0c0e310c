import { useEffect } from 'react';
import { sendPageView, shouldSendPageView } from '../api/events';
import type { Role } from '../api/types';

/** Page analytics event per visited page (spec section 7): statistics cookie + production only. */
export function usePageViews(pathname: string, role: Role | undefined): void {
  useEffect(() => {
    if (
      !role ||
      !shouldSendPageView({ cookies: document.cookie, production: import.meta.env.PROD })
    ) {
      return;
    }
    void sendPageView({ path: pathname, role });
  }, [pathname, role]);
}
