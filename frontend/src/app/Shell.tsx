import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { logout } from '../api/user';
import { AnalysisFiltersProvider } from '../components/filters/AnalysisFiltersProvider';
import { CookieConsent } from '../components/layout/CookieConsent';
import { MobileNav } from '../components/layout/MobileNav';
import { SideNav } from '../components/layout/SideNav';
import { StartupScreen } from '../components/layout/StartupScreen';
import { HelpOverlay } from '../components/overlays/HelpOverlay';
import { OnboardingOverlay } from '../components/overlays/OnboardingOverlay';
import { MAX_CONTENT_WIDTH_PX } from '../constants';
import { withoutDrillParams } from '../lib/drillDown';
import { navigationKind, pageHeight } from './layout';
import { appForPath, buildMenu, type MenuCallbackAction, mobileEntry } from './menu';
import { endSession, useSession } from './session';
import { usePageViews } from './usePageViews';
import { useViewport } from './useViewport';

/** The shell around every analytics page: navigation, overlays, saved filters. */
export function Shell() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const viewport = useViewport();
  const [helpOpened, setHelpOpened] = useState(false);
  const [mobileMenuOpened, setMobileMenuOpened] = useState(false);
  const role = user?.role;
  const app = appForPath(location.pathname);
  usePageViews(location.pathname, role);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the menu is rebuilt when the language changes
  const menu = useMemo(() => (role ? buildMenu(role, t, app) : []), [role, t, app, i18n.language]);

  const onCallback = useCallback(
    (action: MenuCallbackAction) => {
      if (action === 'openHelp') {
        setHelpOpened(true);
      } else if (action === 'openMobileMenu') {
        setMobileMenuOpened(true);
      } else {
        void logout().finally(() => {
          endSession();
          void navigate('/login');
        });
      }
    },
    [navigate],
  );

  if (!user) {
    return <StartupScreen />;
  }
  const kind = navigationKind({
    width: viewport.width,
    search: location.search,
    pageSearch: window.location.search,
  });
  const height = pageHeight(viewport);
  const mobile = mobileEntry(menu);
  // The menu keeps the view (period, vehicles, shift, combined), not one list's filters.
  const menuSearch = withoutDrillParams(location.search);

  return (
    <AnalysisFiltersProvider>
      {/* First focusable element: keyboard users jump past the navigation. A button, not an
          in-page link: the hash router would take "#main-content" for a route. */}
      <button
        type="button"
        className="fs-skip-link"
        data-testid="skip-link"
        onClick={() => document.getElementById('main-content')?.focus()}
      >
        {t('app.skipToContent')}
      </button>
      <div
        className="fs-shell"
        style={height === null ? undefined : { height }}
        data-testid="shell"
        data-navigation={kind}
      >
        {kind === 'side' && (
          <SideNav
            menu={menu}
            role={user.role}
            app={app}
            pathname={location.pathname}
            search={menuSearch}
            onCallback={onCallback}
          />
        )}
        <div className="fs-main">
          {kind === 'mobile' && mobile && (
            <MobileNav
              entry={mobile}
              role={user.role}
              app={app}
              pathname={location.pathname}
              search={menuSearch}
              opened={mobileMenuOpened}
              onOpenedChange={setMobileMenuOpened}
              onCallback={onCallback}
            />
          )}
          <main className="fs-content" id="main-content" tabIndex={-1} data-testid="shell-content">
            <div className="fs-content-inner" style={{ maxWidth: MAX_CONTENT_WIDTH_PX }}>
              <Outlet />
            </div>
          </main>
        </div>
      </div>
      <HelpOverlay
        opened={helpOpened}
        onClose={() => setHelpOpened(false)}
        pathname={location.pathname}
      />
      {/* The onboarding introduces the analytics: the Administration app does not show it. */}
      {app === 'analytics' && <OnboardingOverlay />}
      {/* A wall screen in display mode has nobody to answer the banner. */}
      {kind !== 'hidden' && <CookieConsent />}
    </AnalysisFiltersProvider>
  );
}
