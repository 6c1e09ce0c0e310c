import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBroker, stopBroker } from './support/broker';
import { fleetscopeCli, type RunningServer, startDemoServer, stopServer } from './support/server';
import { cliArgsFor, E2E_USERS } from './support/users';

const frontendDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = resolve(frontendDir, '..');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) {
    return stat.mtimeMs;
  }
  return readdirSync(path).reduce(
    (newest, entry) => Math.max(newest, newestMtime(join(path, entry))),
    stat.mtimeMs,
  );
}

/** One build for the whole run; rebuilt only when the sources are newer than it. */
function ensureBuild(): void {
  const index = join(frontendDir, 'dist/index.html');
  const sources = ['src', 'index.html', 'public', 'vite.config.ts'].map((p) =>
    join(frontendDir, p),
  );
  const newestSource = Math.max(...sources.filter(existsSync).map(newestMtime));
  if (existsSync(index) && statSync(index).mtimeMs >= newestSource) {
    return;
  }
  console.log('[e2e] building the frontend (dist is missing or older than src)');
  execFileSync('npm', ['run', 'build'], { cwd: frontendDir, stdio: 'inherit' });
}

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(dir, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}

/**
 * A private copy of the build for this run: a rebuild of frontend/dist while the tests run
 * (vite empties the folder first) must not pull pages away from under them.
 */
async function snapshotBuild(target: string): Promise<void> {
  const dist = join(frontendDir, 'dist');
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const before = listFiles(dist).sort().join('\n');
    const indexBefore = readFileSync(join(dist, 'index.html'), 'utf8');
    rmSync(target, { recursive: true, force: true });
    cpSync(dist, target, { recursive: true });
    const stable =
      existsSync(join(dist, 'index.html')) &&
      listFiles(dist).sort().join('\n') === before &&
      listFiles(target).sort().join('\n') === before &&
      readFileSync(join(dist, 'index.html'), 'utf8') === indexBefore;
    if (stable) {
      return;
    }
    console.log('[e2e] frontend/dist changed while copying; trying again');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    ensureBuild();
  }
  throw new Error('frontend/dist keeps changing (a build is running?); try again later');
}

/** The users the tests own, each added by the CLI (as an administrator would). */
async function addTestUsers(dataDir: string, { existingOk }: { existingOk: boolean }) {
  await Promise.all(
    Object.values(E2E_USERS).map(async (user) => {
      try {
        await fleetscopeCli({ repoRoot, dataDir, args: cliArgsFor(user) });
      } catch (error) {
        if (!(existingOk && String(error).includes('already exists'))) {
          throw error;
        }
      }
    }),
  );
}

/**
 * Starts ONE real server with fresh demo data for every test, adds the users the tests own
 * and hands the address to the workers through the environment.
 *
 * A private Mosquitto runs beside it: the server subscribes to it and the live tests
 * publish VDA 5050 messages there (its address goes to the workers as E2E_MQTT_URL).
 *
 * For quick iterations on the tests themselves, E2E_BASE_URL and E2E_DATA_DIR may point at
 * a demo server that is already running (`fleetscope demo --days 2 --no-live`, with
 * FLEETSCOPE_MQTT_URL and E2E_MQTT_URL naming the same broker for the live tests); it is
 * neither rebuilt nor stopped then.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const reuseUrl = process.env.E2E_BASE_URL;
  const reuseDataDir = process.env.E2E_DATA_DIR;
  if (reuseUrl && reuseDataDir) {
    await addTestUsers(reuseDataDir, { existingOk: true });
    console.log(`[e2e] using the running server at ${reuseUrl}`);
    return async () => undefined;
  }
  const started = Date.now();
  const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  ensureBuild();
  const workDir = mkdtempSync(join(tmpdir(), 'fleetscope-e2e-'));
  const distCopy = join(workDir, 'dist');
  await snapshotBuild(distCopy);
  // Two days of history (a few seconds of backfill) give the analysis pages data and hold
  // yesterday as a whole day; the README screenshots look better with more (E2E_DEMO_DAYS).
  const days = Number(process.env.E2E_DEMO_DAYS ?? '2');
  const broker = await startBroker({ workDir });
  let server: RunningServer;
  try {
    server = await startDemoServer({
      repoRoot,
      workDir,
      frontendDist: distCopy,
      days,
      mqttUrl: broker.url,
      timeoutMs: 150_000 + days * 60_000,
    });
  } catch (error) {
    await stopBroker(broker);
    throw error;
  }
  const teardown = async () => {
    await stopServer(server);
    await stopBroker(broker);
    if (!process.env.E2E_KEEP_DATA) {
      rmSync(workDir, { recursive: true, force: true });
    }
  };
  console.log(`[e2e] server up after ${seconds()}`);
  try {
    await addTestUsers(server.dataDir, { existingOk: false });
  } catch (error) {
    await teardown();
    throw error;
  }
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_MQTT_URL = broker.url;
  console.log(`[e2e] fleetscope demo at ${server.url}, ready after ${seconds()}`);
  console.log(`[e2e] server log: ${server.logFile}, broker at ${broker.url}`);
  return teardown;
}
