import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Starting and stopping the one real Fleetscope server the end-to-end tests share:
 * `fleetscope demo` on a free port with a fresh data folder (demo tenants, users, vehicles).
 */

const runFile = promisify(execFile);

export interface RunningServer {
  url: string;
  dataDir: string;
  logFile: string;
  process: ChildProcess;
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no free port found'))));
    });
  });
}

function logTail(logFile: string, lines = 40): string {
  if (!existsSync(logFile)) {
    return '(no server log)';
  }
  return readFileSync(logFile, 'utf8').split('\n').slice(-lines).join('\n');
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return response.status > 0;
  } catch {
    return false;
  }
}

/** Waits until the API answers; fails early with the server log when the process ends. */
async function waitUntilServing(server: RunningServer, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null || server.process.signalCode !== null) {
      throw new Error(
        `fleetscope demo ended before serving (exit ${server.process.exitCode}):\n${logTail(server.logFile)}`,
      );
    }
    if (await answers(`${server.url}/v2/User/me`)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `fleetscope demo did not serve within ${timeoutMs} ms:\n${logTail(server.logFile)}`,
  );
}

export async function startDemoServer({
  repoRoot,
  workDir,
  frontendDist,
  days = 0,
  mqttUrl,
  timeoutMs = 150_000,
}: {
  repoRoot: string;
  workDir: string;
  frontendDist: string;
  /** Days of simulated history the demo backfills (0: tenants, users and vehicles only). */
  days?: number;
  /**
   * Broker the server subscribes to. `--no-live` runs no simulated live fleet and no broker
   * of the demo's own, so nothing but the tests publishes there.
   */
  mqttUrl?: string;
  timeoutMs?: number;
}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = join(workDir, 'data');
  const logFile = join(workDir, 'server.log');
  const log = openSync(logFile, 'a');
  const child = spawn(
    join(repoRoot, '.venv/bin/fleetscope'),
    ['demo', '--days', String(days), '--no-live', '--port', String(port), '--data-dir', dataDir],
    {
      cwd: repoRoot,
      // Own process group: teardown ends the server and anything it started, nothing else.
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        FLEETSCOPE_FRONTEND_DIST: frontendDist,
        FLEETSCOPE_MQTT_URL: mqttUrl ?? '',
      },
    },
  );
  closeSync(log);
  const server: RunningServer = {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    logFile,
    process: child,
  };
  try {
    await waitUntilServing(server, timeoutMs);
  } catch (error) {
    await stopServer(server);
    throw error;
  }
  return server;
}

/** Runs the `fleetscope` command line against the server's data folder. */
export async function fleetscopeCli({
  repoRoot,
  dataDir,
  args,
}: {
  repoRoot: string;
  dataDir: string;
  args: string[];
}): Promise<string> {
  try {
    const { stdout } = await runFile(join(repoRoot, '.venv/bin/fleetscope'), args, {
      cwd: repoRoot,
      env: { ...process.env, FLEETSCOPE_DATA_DIR: dataDir },
      // One command imports the whole server (some 13 s of CPU); the global setup runs nine
      // at once on small shared machines, where that has taken over two minutes.
      timeout: 600_000,
    });
    return stdout;
  } catch (error) {
    // The command's own words say why; execFile's message names only the command.
    const failed = error as { code?: unknown; signal?: unknown; stdout?: string; stderr?: string };
    const output = [failed.stdout, failed.stderr].map((text) => text?.trim()).filter(Boolean);
    throw new Error(
      `${String(error)} (exit ${String(failed.code)}, signal ${String(failed.signal)})\n${output.join('\n')}`,
    );
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) {
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

export async function stopServer(server: RunningServer): Promise<void> {
  const { process: child } = server;
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const killed = await Promise.race([
    ended.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
  ]);
  if (!killed) {
    signalGroup(child, 'SIGKILL');
    await ended;
  }
}
