"""``fleetscope import``, ``rebuild`` and ``tokens`` as an operator runs them."""

import gzip
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from fleetscope.appstore.db import store_session
from fleetscope.appstore.models import AuditEntry, Site, Vehicle
from fleetscope.cli.main import app
from fleetscope.demo.seed import DEMO_MANUFACTURER, seed_demo
from fleetscope.facts.store import FactStore
from fleetscope.settings import Settings, get_settings

from .facts_dump import dump
from .vda import T0, line, state

runner = CliRunner()
pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def cli_settings(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    monkeypatch.setenv("FLEETSCOPE_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("FLEETSCOPE_DATA_DIR", str(settings.data_dir))
    get_settings.cache_clear()
    with store_session(settings) as session:
        seed_demo(session)
    yield get_settings()
    get_settings.cache_clear()


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def _ham(header_id: int) -> bytes:
    payload = state("HAM-01", header_id, T0, manufacturer=DEMO_MANUFACTURER)
    return line("HAM-01", "state", payload, manufacturer=DEMO_MANUFACTURER)


def test_import_gzip_then_rebuild(cli_settings: Settings, tmp_path: Path) -> None:
    file = tmp_path / "history.ndjson.gz"
    file.write_bytes(gzip.compress(b"\n".join([_ham(1), _ham(2), _ham(1), b"[]"]) + b"\n"))
    out = _run("import", str(file), "--site", "Hamburg DC")
    assert "accepted 2, duplicates 1, rejected 1" in out
    assert "messages/s" in out
    again = _run("import", str(file))
    assert "accepted 0, duplicates 3, rejected 1" in again
    with FactStore(cli_settings.resolved_facts_path()) as store:
        before = dump(store)
    assert "replayed 2 raw frames" in _run("rebuild")
    with FactStore(cli_settings.resolved_facts_path()) as store:
        assert dump(store) == before


@pytest.mark.parametrize("damage", ["cut", "corrupted"])
def test_a_damaged_gzip_file_keeps_its_lines_before_the_damage_and_says_so(
    cli_settings: Settings, tmp_path: Path, damage: str
) -> None:
    """A copy cut short, or bytes changed near its end: the lines before are stored, the
    damage is told as a rejected line, and the import exits 1 (it did not read it all)."""
    packed = bytearray(gzip.compress(b"".join(_ham(n) + b"\n" for n in range(1, 41))))
    if damage == "cut":
        packed = packed[:-12]  # the CRC trailer and some data missing
    else:
        for index in range(len(packed) - 60, len(packed) - 40):
            packed[index] ^= 0x5A
    before_damage = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(bytes(packed[:-60]))
    complete = before_damage.count(b"\n")
    assert complete > 0
    file = tmp_path / "damaged.ndjson.gz"
    file.write_bytes(bytes(packed))
    result = runner.invoke(app, ["import", str(file), "--site", "Hamburg DC"])
    assert result.exit_code == 1, result.output
    # Changed bytes may read as broken data or as data that breaks off: either is told.
    assert "file: the gzip data " in result.stderr
    if damage == "cut":
        assert "file: the gzip data breaks off after line" in result.stderr
    with FactStore(cli_settings.resolved_facts_path()) as store:
        assert store.raw_frame_count() >= complete


def test_broken_gzip_data_is_told_as_damaged_after_the_lines_before_it(
    cli_settings: Settings, tmp_path: Path
) -> None:
    # A whole member, then a second one whose data is no deflate stream.
    whole = gzip.compress(b"".join(_ham(n) + b"\n" for n in range(1, 6)))
    file = tmp_path / "broken.ndjson.gz"
    file.write_bytes(whole + gzip.compress(b"x" * 100)[:10] + b"\xff" * 40)
    result = runner.invoke(app, ["import", str(file), "--site", "Hamburg DC"])
    assert result.exit_code == 1, result.output
    assert "accepted 5, duplicates 0, rejected 1" in result.stdout
    assert "line 6: file: the gzip data is damaged after line 5 (" in result.stderr


def test_import_for_another_site_writes_only_that_sites_own_vehicle(
    cli_settings: Settings, tmp_path: Path
) -> None:
    file = tmp_path / "history.ndjson"
    file.write_bytes(_ham(1) + b"\n")
    result = runner.invoke(app, ["import", str(file), "--site", "Munich Hub"])
    assert result.exit_code == 0
    assert "accepted 1, duplicates 0, rejected 0" in result.stdout
    with store_session(cli_settings) as session:
        holders = session.execute(
            select(Site.name, Vehicle.id)
            .join(Vehicle.site)
            .where(Vehicle.serial_number == "HAM-01")
        ).all()
    # Hamburg's seeded HAM-01 and a new one of Munich's, which took the message.
    assert sorted(name for name, _ in holders) == ["Hamburg DC", "Munich Hub"]
    munich_vehicle = next(vehicle for name, vehicle in holders if name == "Munich Hub")
    with FactStore(cli_settings.resolved_facts_path()) as store:
        cursor = store.cursor()
        stored = cursor.execute("SELECT DISTINCT vehicle_id FROM raw_keys").fetchall()
        cursor.close()
    assert stored == [(munich_vehicle,)]


def test_tokens_are_created_listed_and_revoked(cli_settings: Settings) -> None:
    token = _run("tokens", "create", "--site", "Hamburg DC", "--name", "gateway").strip()
    assert token.startswith("fst_") and len(token) > 40
    listed = _run("tokens", "list", "--site", "Hamburg DC")
    assert "gateway" in listed and "never used" in listed and "active" in listed
    assert token not in listed
    token_id = listed.split()[0]
    assert "revoked token" in _run("tokens", "revoke", token_id, "--site", "Hamburg DC")
    assert "revoked" in _run("tokens", "list", "--site", "Hamburg DC")
    with store_session(cli_settings) as session:  # the same audit entries as the web's
        entries = list(session.scalars(select(AuditEntry).order_by(AuditEntry.id)))
    assert [(e.action, e.via, e.entity_id) for e in entries] == [
        ("token.create", "cli", token_id),
        ("token.revoke", "cli", token_id),
    ]
    assert all(token not in str(e.after) for e in entries)
    missing = runner.invoke(app, ["tokens", "create", "--site", "Nowhere"])
    assert missing.exit_code == 1 and "site 'Nowhere' not found" in missing.stderr
