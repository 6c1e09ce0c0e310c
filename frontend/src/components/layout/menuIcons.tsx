import {
  type Icon,
  IconAlertTriangle,
  IconBattery3,
  IconChartBar,
  IconHelpCircle,
  IconLayoutDashboard,
  IconLogout,
  IconMenu2,
  IconPoint,
  IconRoute,
} from '@tabler/icons-react';
import type { MenuIcon } from '../../app/menu';

export const MENU_ICONS: Record<MenuIcon, Icon> = {
  dashboards: IconLayoutDashboard,
  productivity: IconChartBar,
  processes: IconRoute,
  failures: IconAlertTriangle,
  battery: IconBattery3,
  help: IconHelpCircle,
  logout: IconLogout,
  menu: IconMenu2,
  page: IconPoint,
};
