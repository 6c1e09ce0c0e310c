"""Progress of ``import``, ``rebuild`` and the demo backfill as an operator sees it in a log.

CliRunner's streams are no terminal, so the commands print plain progress lines: the first
step at once, then at most one every few seconds, and the complete one at the end.
"""

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from multiprocessing import get_context
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fleetscope.appstore.db import store_session
from fleetscope.cli.main import app
from fleetscope.cli.progress import Step, clock, plain_line, rate, time_left
from fleetscope.demo.fleet import FleetPlan, FleetProgress, history_start
from fleetscope.demo.run import backfill_step
from fleetscope.demo.seed import DEMO_MANUFACTURER, seed_demo
from fleetscope.settings import Settings, get_settings

from .vda import T0, line, state

runner = CliRunner()
_CONTROL = re.compile(r"\x1b|\r")


def test_rate_and_time_left_extrapolate_the_part_done() -> None:
    assert rate(count=300, elapsed_s=2.0) == 150.0
    assert rate(count=300, elapsed_s=0.0) == 0.0
    # A quarter in 30 s: three quarters to go at the same pace.
    assert time_left(fraction=0.25, elapsed_s=30.0) == 90.0
    assert time_left(fraction=0.0, elapsed_s=30.0) is None
    assert time_left(fraction=1.0, elapsed_s=30.0) == 0.0
    assert clock(65.4) == "1:05"
    assert clock(3725) == "1:02:05"
    assert clock(None) == "?"


def test_plain_line_shows_done_total_messages_rate_and_time_left() -> None:
    step = Step(done=2_500, total=10_000, messages=400, unit="bytes")
    assert plain_line("import", step, elapsed_s=4.0) == (
        "import: 25% 2,500/10,000 bytes, 400 messages, 100 messages/s, elapsed 0:04, left 0:12"
    )
    unknown = Step(done=7, total=None, messages=7)
    assert plain_line("x", unknown, elapsed_s=1.0) == (
        "x: ?% 7/? messages, 7 messages/s, elapsed 0:01, left ?"
    )


def test_backfill_total_is_extrapolated_from_the_simulated_time_reached() -> None:
    split_at = datetime(2026, 3, 10, 12, 0, tzinfo=UTC)
    fleet = FleetProgress(get_context("spawn"), FleetPlan(30, split_at, None, None))
    start = history_start(days=30, split_at=split_at)
    fleet.reached_ms.value = round((start + timedelta(days=10)).timestamp() * 1000)
    fleet.generated.value = 1_200
    fleet.shared_messages.value = 100
    step = backfill_step(ingested=900, fleet=fleet)
    # A third of the 30 days generated in 1,200 messages, 1,000 of them ingested (here and
    # by the fleet process): about 3,600 in all.
    assert (step.done, step.total, step.estimated) == (1_000, 3_600, True)
    assert plain_line("backfill", step, elapsed_s=10.0).startswith(
        "backfill: 28% 1,000/~3,600 messages, 100 messages/s, elapsed 0:10, left 0:26"
    )


@pytest.fixture
def cli_settings(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    monkeypatch.setenv("FLEETSCOPE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("FLEETSCOPE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    with store_session(settings) as session:
        seed_demo(session)
    yield get_settings()
    get_settings.cache_clear()


def _progress_lines(output: str, label: str) -> list[str]:
    assert not _CONTROL.search(output), "control codes in a log"
    return [text for text in output.splitlines() if text.startswith(f"{label}: ")]


@pytest.mark.sqlite_only
def test_import_then_rebuild_show_plain_progress_to_100_percent(
    cli_settings: Settings, tmp_path: Path
) -> None:
    # 250 lines of the same length (header ids 1000 to 1249), imported 100 per batch.
    lines = [
        line(
            "HAM-01",
            "state",
            state("HAM-01", n, T0, manufacturer=DEMO_MANUFACTURER),
            manufacturer=DEMO_MANUFACTURER,
        )
        for n in range(1000, 1250)
    ]
    assert len({len(text) for text in lines}) == 1
    width = len(lines[0]) + 1
    file = tmp_path / "history.ndjson"
    file.write_bytes(b"".join(text + b"\n" for text in lines))

    result = runner.invoke(app, ["import", str(file), "--batch-size", "100"])
    assert result.exit_code == 0, result.output
    shown = _progress_lines(result.output, "import")
    # The first batch at once: 100 lines of 250 read; the rest within seconds, then the end.
    first, last = shown[0], shown[-1]
    assert first.startswith(f"import: 40% {100 * width:,}/{250 * width:,} bytes, 100 messages, ")
    assert re.search(r", [\d,]+ messages/s, elapsed \d+:\d\d, left \d+:\d\d$", first)
    assert last.startswith(f"import: 100% {250 * width:,}/{250 * width:,} bytes, 250 messages, ")
    assert last.endswith(", left 0:00")
    assert "accepted 250, duplicates 0, rejected 0" in result.stdout

    rebuilt = runner.invoke(app, ["rebuild"])
    assert rebuilt.exit_code == 0, rebuilt.output
    shown = _progress_lines(rebuilt.output, "rebuild")
    assert shown[0].startswith("rebuild: 0% 0/250 frames, 0 messages, ")
    assert shown[0].endswith(", left ?")
    assert shown[-1].startswith("rebuild: 100% 250/250 frames, 250 messages, ")
    assert re.search(r", [\d,]+ messages/s, elapsed \d+:\d\d, left 0:00$", shown[-1])
    assert "replayed 250 raw frames" in rebuilt.stdout
