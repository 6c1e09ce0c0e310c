"""JS and CSS a browser transfers before the dashboard is usable, on a cold cache.

Starts the real server (``fleetscope demo --days 1 --no-live``, the built ``frontend/dist``)
on a free port, then drives Debian's Chromium through Playwright (``frontend/node_modules``):
open ``/``, log in as the demo customer and wait until the dashboard's widgets show their
values and sparklines (no loading placeholder left). Every script and style sheet requested
until then is counted with the bytes that crossed the network for its body (compressed, as
the server sent it) and its uncompressed size. Prints one line per file and the totals.
Asserts nothing.

    .venv/bin/python benchmarks/bench_assets.py [--build] [--days 1]
"""

import argparse
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FRONTEND = REPO / "frontend"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")

# Runs in node from frontend/ (for its playwright-core); prints one JSON document.
BROWSER_SCRIPT = r"""
import { chromium } from 'playwright-core';

const [baseUrl, email, password, executablePath] = process.argv.slice(1);
const args = ['--disable-gpu', '--disable-quic'];
const browser = await chromium.launch({ executablePath, args });
try {
  const viewport = { width: 1280, height: 800 };
  const context = await browser.newContext({ viewport, locale: 'en-GB' });
  const page = await context.newPage();
  const pending = [];
  page.on('request', (request) => {
    const type = request.resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      request.response().then(async (response) => {
        if (!response) return null;
        await response.finished();
        const sizes = await request.sizes();
        const body = await response.body();
        const headers = await response.allHeaders();
        return {
          url: request.url(),
          transferred: sizes.responseBodySize,
          uncompressed: body.length,
          encoding: headers['content-encoding'] ?? 'identity',
          status: response.status(),
        };
      }),
    );
  });
  const started = Date.now();
  await page.goto(baseUrl);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  const widgets = page.getByTestId('dashboard-widgets');
  await widgets.locator('[data-testid^="kpi-"]').first().waitFor({ timeout: 60_000 });
  // Usable: every tile has its value and every sparkline its canvas, no placeholder left.
  await page.waitForFunction(
    () => {
      const grid = document.querySelector('[data-testid="dashboard-widgets"]');
      if (!grid || grid.querySelector('.mantine-Skeleton-root')) return false;
      const values = [...grid.querySelectorAll('[data-testid="kpi-value"]')];
      const charts = [...grid.querySelectorAll('[role="img"]')];
      return (
        values.length > 0 &&
        values.every((value) => value.textContent && value.textContent !== '…') &&
        charts.every((chart) => chart.tagName === 'svg' || chart.querySelector('canvas'))
      );
    },
    undefined,
    { timeout: 60_000, polling: 50 },
  );
  const usableMs = Date.now() - started;
  const requested = pending.length;
  const files = (await Promise.all(pending.slice(0, requested))).filter(Boolean);
  const tiles = await widgets.locator('[data-testid="kpi-value"]').count();
  const sparklines = await widgets.locator('[role="img"]').count();
  console.log(JSON.stringify({ usableMs, tiles, sparklines, files }));
} finally {
  await browser.close();
}
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_serving(url: str, server: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server ended before serving (exit {server.returncode})")
        try:
            urllib.request.urlopen(f"{url}/v2/User/me", timeout=2)
            return
        except urllib.error.HTTPError:
            return  # 401: it answers
        except OSError:
            time.sleep(0.25)
    raise SystemExit(f"the server did not serve within {timeout_s:.0f} s")


@dataclass(frozen=True)
class Transfer:
    url: str
    encoding: str
    transferred: int  # body bytes on the wire
    uncompressed: int


@dataclass(frozen=True)
class Measurement:
    usable_s: float
    tiles: int
    sparklines: int
    files: list[Transfer]


def _measure(url: str) -> Measurement:
    done = subprocess.run(
        [
            "node",
            "--input-type=module",
            "-e",
            BROWSER_SCRIPT,
            url,
            "customer@demo.fleetscope",
            "demo",
            CHROMIUM,
        ],
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the browser run failed:\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    files = [
        Transfer(
            url=str(file["url"]),
            encoding=str(file["encoding"]),
            transferred=int(file["transferred"]),
            uncompressed=int(file["uncompressed"]),
        )
        for file in result["files"]
    ]
    return Measurement(
        usable_s=int(result["usableMs"]) / 1000,
        tiles=int(result["tiles"]),
        sparklines=int(result["sparklines"]),
        files=files,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true", help="run `npm run build` first")
    parser.add_argument("--days", type=int, default=1, help="days of demo history")
    args = parser.parse_args()
    if args.build:
        subprocess.run(["npm", "run", "build"], cwd=FRONTEND, check=True)
    dist = FRONTEND / "dist"
    if not (dist / "index.html").is_file():
        raise SystemExit("frontend/dist is not built: run with --build")

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="fleetscope-bench-assets-") as work:
        log = open(Path(work) / "server.log", "wb")  # noqa: SIM115 - closed below
        command = [str(REPO / ".venv/bin/fleetscope"), "demo", "--days", str(args.days)]
        command += ["--no-live", "--port", str(port), "--data-dir", str(Path(work) / "data")]
        server = subprocess.Popen(
            command,
            cwd=REPO,
            env={**os.environ, "FLEETSCOPE_FRONTEND_DIST": str(dist), "FLEETSCOPE_MQTT_URL": ""},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: stopped with all it started
        )
        try:
            _wait_until_serving(url, server, timeout_s=300)
            result = _measure(url)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()
            log.close()

    files = sorted(result.files, key=lambda file: -file.transferred)
    print(f"{'file':<48} {'encoding':>8} {'sent KB':>9} {'raw KB':>9}")
    for file in files:
        name = file.url.rsplit("/", 1)[-1]
        print(
            f"{name:<48} {file.encoding:>8} {file.transferred / 1000:>9.1f}"
            f" {file.uncompressed / 1000:>9.1f}"
        )
    sent = sum(file.transferred for file in files)
    raw = sum(file.uncompressed for file in files)
    print(
        f"JS+CSS before the dashboard is usable: {sent / 1000:.1f} KB transferred "
        f"({raw / 1000:.1f} KB uncompressed) in {len(files)} files; "
        f"{result.tiles} tiles, {result.sparklines} sparklines, "
        f"usable after {result.usable_s:.1f} s"
    )


if __name__ == "__main__":
    main()
