import { callApi } from './client';
import type { Site, Vehicle } from './types';

let loadedVehicles: Vehicle[] | null = null;
let pending: Promise<Vehicle[]> | null = null;

/**
 * Loads the vehicles for the selected machines; skipped if they are already loaded
 * (spec section 7). Concurrent callers share one request.
 */
export function loadVehicles(): Promise<Vehicle[]> {
  if (loadedVehicles) {
    return Promise.resolve(loadedVehicles);
  }
  if (!pending) {
    pending = callApi<Vehicle[]>('/v2/Vehicles')
      .then((vehicles) => {
        loadedVehicles = Array.isArray(vehicles) ? vehicles : [];
        return loadedVehicles;
      })
      .finally(() => {
        pending = null;
      });
  }
  return pending;
}

export function loadedVehiclesSnapshot(): Vehicle[] | null {
  return loadedVehicles;
}

/** Forget the loaded vehicles (logout, or another user logs in). */
export function resetLoadedVehicles(): void {
  loadedVehicles = null;
  pending = null;
}

export async function loadSites(): Promise<Site[]> {
  const sites = await callApi<Site[]>('/v2/Sites');
  return Array.isArray(sites) ? sites : [];
}
