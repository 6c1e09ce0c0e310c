/**
 * Why a chart is empty, as an i18n key under `charts.empty`. The pages pass the reason to
 * ChartCard so the user reads what to change, not just "no data".
 */
export type EmptyReason =
  | 'noVehicles'
  | 'noDataInPeriod'
  | 'shiftExcludes'
  | 'noEvents'
  // The vehicles send data, but not the value the chart shows (battery state of health).
  | 'noHealth';

export function emptyReasonFor({
  vehicleCount,
  shift,
}: {
  vehicleCount: number;
  shift: string | number;
}): EmptyReason {
  if (vehicleCount === 0) {
    return 'noVehicles';
  }
  return shift === 'all' ? 'noDataInPeriod' : 'shiftExcludes';
}
