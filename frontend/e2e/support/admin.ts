import type { APIRequestContext } from '@playwright/test';

/**
 * Helpers of the Administration end-to-end test: a small NDJSON batch of VDA 5050 messages
 * as a site's systems send it to `POST /v2/Ingest/vda5050` with the site's API token.
 */

export interface NdjsonVehicle {
  interfaceName: string;
  manufacturer: string;
  serialNumber: string;
}

const VERSION = '2.0.0';

function header(vehicle: NdjsonVehicle, headerId: number, at: Date) {
  return {
    headerId,
    timestamp: at.toISOString(),
    version: VERSION,
    manufacturer: vehicle.manufacturer,
    serialNumber: vehicle.serialNumber,
  };
}

function state(
  vehicle: NdjsonVehicle,
  headerId: number,
  at: Date,
  { orderId, driving }: { orderId: string; driving: boolean },
) {
  return {
    ...header(vehicle, headerId, at),
    orderId,
    orderUpdateId: 0,
    lastNodeId: driving ? 'n1' : 'n2',
    lastNodeSequenceId: driving ? 0 : 2,
    // Driving to n2 over e1; then idle there with every node traversed: a finished order.
    nodeStates: driving ? [{ nodeId: 'n2', sequenceId: 2, released: true }] : [],
    edgeStates: driving ? [{ edgeId: 'e1', sequenceId: 1, released: true }] : [],
    driving,
    paused: false,
    actionStates: [],
    batteryState: { batteryCharge: 80, charging: false },
    operatingMode: 'AUTOMATIC',
    errors: [],
    information: [],
    loads: [],
    safetyState: { eStop: 'NONE', fieldViolation: false },
  };
}

/**
 * One vehicle coming online and running `orderIds` one after the other, each finished
 * (driving, then idle with every node traversed), 10 s apart and ending about now.
 */
export function finishedOrdersNdjson(vehicle: NdjsonVehicle, orderIds: string[]): string {
  const base = `${vehicle.interfaceName}/v2/${vehicle.manufacturer}/${vehicle.serialNumber}`;
  const steps = 2 + orderIds.length * 2;
  const start = Date.now() - steps * 10_000;
  const at = (step: number) => new Date(start + step * 10_000);
  // Above anything a previous run of the same vehicle could have sent.
  let headerId = Math.floor(Date.now() / 1000);
  const lines: unknown[] = [
    {
      topic: `${base}/connection`,
      payload: { ...header(vehicle, headerId++, at(0)), connectionState: 'ONLINE' },
    },
  ];
  orderIds.forEach((orderId, index) => {
    for (const driving of [true, false]) {
      lines.push({
        topic: `${base}/state`,
        payload: state(vehicle, headerId++, at(1 + index * 2 + (driving ? 0 : 1)), {
          orderId,
          driving,
        }),
      });
    }
  });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

export interface IngestAnswer {
  accepted: number;
  duplicates: number;
  rejected: Array<{ line: number; reason: string }>;
}

/** POST /v2/Ingest/vda5050 with the token (no session: the token alone authenticates). */
export async function ingestNdjson(
  request: APIRequestContext,
  { token, body }: { token: string; body: string },
): Promise<{ status: number; answer: IngestAnswer | null; text: string }> {
  const response = await request.post('/v2/Ingest/vda5050', {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/x-ndjson' },
    data: body,
  });
  const text = await response.text();
  let answer: IngestAnswer | null = null;
  try {
    answer = (JSON.parse(text) as { data: IngestAnswer }).data;
  } catch {
    answer = null;
  }
  return { status: response.status(), answer, text };
}
