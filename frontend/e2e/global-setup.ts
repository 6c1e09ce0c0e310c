import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fleetscopeCli, startDemoServer, stopServer } from './support/server';
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
  const sources = ['src', 'index.html', 'public', 'vite.config.ts'].map((p) => join(frontendDir, p));
  const newestSource = Math.max(...sources.filter(existsSync).map(newestMtime));
  if (existsSync(index) && statSync(index).mtimeMs >= newestSource) {
    return;
  }
  console.log('[e2e] building the frontend (dist is missing or older than src)');
  execFileSync('npm', ['run', 'build'], { cwd: frontendDir, stdio: 'inherit' });
}

/**
 * Starts ONE real server with fresh demo data for every test, adds the users the tests own
 * and hands the address to the workers through the environment.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  ensureBuild();
  const workDir = mkdtempSync(join(tmpdir(), 'fleetscope-e2e-'));
  const server = await startDemoServer({ repoRoot, workDir });
  const teardown = async () => {
    await stopServer(server);
    if (!process.env.E2E_KEEP_DATA) {
      rmSync(workDir, { recursive: true, force: true });
    }
  };
  try {
    await Promise.all(
      Object.values(E2E_USERS).map((user) =>
        fleetscopeCli({ repoRoot, dataDir: server.dataDir, args: cliArgsFor(user) }),
      ),
    );
  } catch (error) {
    await teardown();
    throw error;
  }
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_SERVER_LOG = server.logFile;
  console.log(`[e2e] fleetscope demo at ${server.url} (log: ${server.logFile})`);
  return teardown;
}
