import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { Vehicle } from '../../api/types';
import { linkVehicles } from '../../lib/filters';
import {
  addressShows,
  decodeView,
  encodeView,
  unreadableViewParams,
  type ViewState,
} from '../../lib/viewUrl';

/**
 * A link with parts that cannot be read (`unknownShift`: a shift no site of the user keeps),
 * or naming vehicles the user cannot see: the user is told which, and the address then
 * shows the view the page shows (`viewKey`: that view as JSON), so it is a link to what is
 * on the screen. Only once the vehicles, the sites and the saved settings are read: before,
 * the view shown is the default one, which would take the place of the saved period.
 */
export function useLinkRepair({
  vehicles,
  settingsRead,
  sitesRead,
  unknownShift,
  viewKey,
}: {
  vehicles: Vehicle[] | undefined;
  settingsRead: boolean;
  sitesRead: boolean;
  unknownShift: boolean;
  viewKey: string;
}): void {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (vehicles === undefined || !settingsRead || !sitesRead || !addressShows(location.pathname)) {
      return;
    }
    const unreadable = [
      ...unreadableViewParams(location.search),
      ...(unknownShift ? ['shift'] : []),
    ];
    const named = decodeView(location.search).vehicles ?? [];
    const { visible, hidden } = linkVehicles(named, vehicles);
    if (unreadable.length > 0) {
      notifications.show({
        id: 'link-unreadable',
        color: 'yellow',
        message: t('filters.linkUnreadable', { params: unreadable.join(', ') }),
      });
    }
    if (hidden > 0) {
      notifications.show({
        id: 'link-vehicles-hidden',
        color: 'yellow',
        message: t('filters.linkVehiclesHidden', { count: hidden }),
      });
    }
    if (unreadable.length > 0 || hidden > 0) {
      const shown = JSON.parse(viewKey) as ViewState;
      const search = encodeView(
        { ...shown, vehicles: hidden > 0 ? visible : shown.vehicles },
        location.search,
      );
      navigate({ pathname: location.pathname, search }, { replace: true });
    }
  }, [
    location.pathname,
    location.search,
    vehicles,
    settingsRead,
    sitesRead,
    unknownShift,
    viewKey,
    navigate,
    t,
  ]);
}
