"""The benchmarks' fleet generator writes a fact store the product reads. It inserts rows by
column position, so a column added to a fact table must reach it too."""

import subprocess
import sys
from pathlib import Path

from fleetscope.facts.store import FactStore

GENERATOR = Path(__file__).resolve().parents[3] / "benchmarks" / "generate_fleet.py"


def test_the_fleet_generator_writes_every_table_of_the_current_schema(tmp_path: Path) -> None:
    out = tmp_path / "bench"
    arguments = ["--out", str(out), "--vehicles", "2", "--days", "2"]
    subprocess.run([sys.executable, GENERATOR, *arguments], check=True, capture_output=True)
    with FactStore(out / "facts.duckdb") as store:
        cursor = store.cursor()
        counts = {
            table: cursor.execute(f"SELECT count(*) FROM {table}").fetchone()  # noqa: S608 - constants only
            for table in ("battery_samples", "battery_hourly", "rollup_hourly", "live_status")
        }
    assert counts["live_status"] == (2,)
    assert all(count is not None and count[0] > 0 for count in counts.values())
