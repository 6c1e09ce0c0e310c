import { Outlet, useLoaderData } from 'react-router';
import { EmptyState } from '../components/layout/EmptyState';
import type { VehicleCheckData } from './guards';

/** Second half of the extra check: without any vehicle the area shows a clear empty state. */
export function VehicleGate() {
  const { vehicles } = useLoaderData() as VehicleCheckData;
  if (vehicles.length === 0) {
    return <EmptyState kind="noVehicles" />;
  }
  return <Outlet />;
}
