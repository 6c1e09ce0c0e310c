"""``fleetscope simulate`` writes NDJSON.gz in the import format and the truth beside it."""

import gzip
from pathlib import Path

import orjson
from typer.testing import CliRunner

from fleetscope.cli.main import app
from fleetscope.simulator import load_truth


def test_simulate_writes_messages_and_truth(tmp_path: Path) -> None:
    out = tmp_path / "fleet.ndjson.gz"
    result = CliRunner().invoke(
        app,
        ["simulate", "--seed", "7", "--days", "0.1", "--vehicles", "2", "--out", str(out),
         "--serial-prefix", "HAM", "--start", "2026-11-02T06:00:00+01:00"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = gzip.decompress(out.read_bytes()).splitlines()
    first = orjson.loads(lines[0])
    assert first["topic"] == "uagv/v2/Fleetscope Sim/HAM-01/connection"
    assert first["payload"]["timestamp"].startswith("2026-11-02T05:00:")
    assert len(lines) > 500
    assert f"{len(lines)} messages" in result.output
    truth = load_truth(tmp_path / "fleet.truth.json")
    assert [v.serial_number for v in truth.vehicles] == ["HAM-01", "HAM-02"]
    assert sum(v.messages for v in truth.vehicles) == len(lines)


def test_simulate_needs_exactly_one_output(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["simulate", "--days", "0.01"])
    assert result.exit_code != 0
    assert "--out" in result.output
    result = CliRunner().invoke(
        app, ["simulate", "--out", str(tmp_path / "x.ndjson"), "--start", "2026-11-02T06:00"]
    )
    assert result.exit_code != 0
    assert "time zone" in result.output
