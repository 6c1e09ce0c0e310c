import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort } from './server';

/**
 * A private Mosquitto for the end-to-end run (Debian's `mosquitto` package): loopback only,
 * a free port, anonymous access, no persistence, log to a file in the run's folder. The
 * server subscribes to it (FLEETSCOPE_MQTT_URL) and the live tests publish VDA 5050
 * messages to it. Same configuration as the backend's PrivateMosquitto.
 */

export interface RunningBroker {
  url: string;
  logFile: string;
  process: ChildProcess;
}

const EXECUTABLES = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'];

function mosquittoBinary(): string {
  const found = EXECUTABLES.find(existsSync);
  if (!found) {
    throw new Error("mosquitto not found: install Debian's mosquitto package (make system-deps)");
  }
  return found;
}

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export async function startBroker({
  workDir,
  timeoutMs = 10_000,
}: {
  workDir: string;
  timeoutMs?: number;
}): Promise<RunningBroker> {
  const port = await freePort();
  const config = join(workDir, 'mosquitto.conf');
  const logFile = join(workDir, 'mosquitto.log');
  // Started as root, Mosquitto drops to its own user: it reads the configuration first,
  // but could not write a log file into this root-owned folder, so it logs to stderr.
  writeFileSync(
    config,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      '',
    ].join('\n'),
  );
  const log = openSync(logFile, 'a');
  // In the runner's process group: Ctrl+C ends the broker too.
  const child = spawn(mosquittoBinary(), ['-c', config], { stdio: ['ignore', log, log] });
  closeSync(log);
  const broker: RunningBroker = { url: `mqtt://127.0.0.1:${port}`, logFile, process: child };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`mosquitto exited (${child.exitCode}): ${readFileSync(logFile, 'utf8')}`);
    }
    if (await listens(port)) {
      return broker;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stopBroker(broker);
  throw new Error(`mosquitto did not listen on port ${port} within ${timeoutMs} ms`);
}

export async function stopBroker(broker: RunningBroker): Promise<void> {
  const { process: child } = broker;
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const stopped = await Promise.race([
    ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000)),
  ]);
  if (!stopped) {
    child.kill('SIGKILL');
    await ended;
  }
}
