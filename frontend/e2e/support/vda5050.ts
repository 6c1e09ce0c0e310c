import { connectAsync, type MqttClient } from 'mqtt';

/**
 * A stand-in vehicle for the live tests: publishes VDA 5050 `state` messages to the broker
 * the server subscribes to (E2E_MQTT_URL, set by the global setup), as a real vehicle would.
 */

export function brokerUrl(): string {
  const url = process.env.E2E_MQTT_URL;
  if (!url) {
    throw new Error(
      'E2E_MQTT_URL is not set: run the tests with `npm run e2e` (the global setup starts ' +
        'the broker), or name the broker the reused server subscribes to',
    );
  }
  return url;
}

export interface PublishingVehicle {
  manufacturer: string;
  serialNumber: string;
  protocolVersion: string | null;
}

export interface VehicleCondition {
  batteryCharge: number;
  charging: boolean;
}

/** The demo's Hamburg DC (and Fleetscope's default) MQTT interface. */
const INTERFACE = 'uagv';

export class VehicleStatePublisher {
  // Above every headerId the simulated history used, and rising from run to run: the
  // deriver would drop a message it takes for a duplicate.
  private headerId = Math.floor(Date.now() / 1000);

  private constructor(
    private readonly client: MqttClient,
    private readonly vehicle: PublishingVehicle,
  ) {}

  static async connect(vehicle: PublishingVehicle): Promise<VehicleStatePublisher> {
    const client = await connectAsync(brokerUrl(), {
      clientId: `e2e-${vehicle.serialNumber}-${process.pid}`,
      reconnectPeriod: 0,
    });
    return new VehicleStatePublisher(client, vehicle);
  }

  private get version(): string {
    return this.vehicle.protocolVersion ?? '2.0.0';
  }

  get topic(): string {
    const major = this.version.split('.')[0];
    const { manufacturer, serialNumber } = this.vehicle;
    return `${INTERFACE}/v${major}/${manufacturer}/${serialNumber}/state`;
  }

  /** A complete VDA 5050 state of an idle vehicle in automatic mode, stamped now. */
  stateMessage({ batteryCharge, charging }: VehicleCondition): Record<string, unknown> {
    this.headerId += 1;
    return {
      headerId: this.headerId,
      timestamp: new Date().toISOString(),
      version: this.version,
      manufacturer: this.vehicle.manufacturer,
      serialNumber: this.vehicle.serialNumber,
      orderId: '',
      orderUpdateId: 0,
      lastNodeId: '',
      lastNodeSequenceId: 0,
      nodeStates: [],
      edgeStates: [],
      driving: false,
      paused: false,
      actionStates: [],
      batteryState: { batteryCharge, charging },
      operatingMode: 'AUTOMATIC',
      errors: [],
      information: [],
      loads: [],
      safetyState: { eStop: 'NONE', fieldViolation: false },
    };
  }

  /**
   * Publishes at QoS 0, as VDA 5050 asks for `state`; resolves once the message is sent.
   * `changes` replace fields of the idle state (`driving`, `operatingMode`, `errors`, ...).
   */
  async publishState(
    condition: VehicleCondition,
    changes: Record<string, unknown> = {},
  ): Promise<void> {
    const message = { ...this.stateMessage(condition), ...changes };
    await this.client.publishAsync(this.topic, JSON.stringify(message), { qos: 0 });
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }
}
