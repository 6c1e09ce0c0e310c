"""Hand-made facts for the failure map: the newest points read from the end of T, the
density grid over track and errors, and the cached layout with its invalidation."""

from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import duckdb
import pytest

from fleetscope.analytics.core.paging import PageRequest
from fleetscope.analytics.core.params import AnalyticsScope, SiteGroup, VehicleRef
from fleetscope.analytics.core.periods import DaySpan
from fleetscope.analytics.failures import map as failure_map_module
from fleetscope.analytics.failures.error_history import error_history
from fleetscope.analytics.failures.failures import ErrorFilter
from fleetscope.analytics.failures.layout import LayoutCache, MapCell, site_layout
from fleetscope.analytics.failures.map import FailureMapOut, failure_map
from fleetscope.facts.store import FactStore

DAY = date(2026, 3, 10)
DAYS = 6
START = datetime.combine(DAY, time(), UTC)
NOW = START + timedelta(days=DAYS)
MAP = "hall-1"


def _scope() -> AnalyticsScope:
    return AnalyticsScope(
        span=DaySpan(DAY, DAY + timedelta(days=DAYS - 1)),
        combined=False,
        shift_id="all",
        vehicles=[VehicleRef(1, "V1", 1), VehicleRef(2, "V2", 1)],
        sites=[SiteGroup(1, ZoneInfo("UTC"), None, excluded=False, vehicle_ids=[1, 2])],
    )


def _track(cursor: duckdb.DuckDBPyConnection, *, width: float, height: float) -> None:
    """Both vehicles drive around a width x height rectangle, a point a minute."""
    cursor.execute(
        "INSERT INTO track_points SELECT 1 + i % 2, ?::TIMESTAMPTZ + to_minutes(i), "
        "CASE WHEN i % 4 < 2 THEN (i % 97) / 96 * ? ELSE (i % 4 - 2) * ? END, "
        "CASE WHEN i % 4 < 2 THEN (i % 4) * ? ELSE (i % 89) / 88 * ? END, ?, 1.0 "
        "FROM range(?) t(i)",
        [START, width, width, height, height, MAP, DAYS * 24 * 60],
    )


def _errors(cursor: duckdb.DuckDBPyConnection, starts: list[datetime], *, x0: float) -> None:
    """One episode per start, the levels in turn, spread over 0..x0+20 m x 0..10 m."""
    cursor.execute(
        "INSERT INTO error_episodes SELECT 1 + i % 2, 'type' || (i % 3), "
        "['WARNING', 'URGENT', 'FATAL'][1 + i % 3], 'd' || i, '[]', s, s + INTERVAL 30 SECOND, "
        "? + (i * 5 % 21), (i * 3 % 11), ?, '' "
        "FROM (SELECT unnest(?::TIMESTAMPTZ[]) AS s, unnest(range(?)) AS i)",
        [x0, MAP, starts, len(starts)],
    )


def _run(
    cursor: duckdb.DuckDBPyConnection,
    *,
    errors: ErrorFilter | None = None,
    layouts: LayoutCache | None = None,
) -> FailureMapOut:
    return failure_map(
        cursor,
        _scope(),
        now=NOW,
        errors=errors or ErrorFilter(),
        layouts=layouts,
    )


def _truth(cursor: duckdb.DuckDBPyConnection) -> list[tuple[datetime, int, str]]:
    rows = cursor.execute(
        "SELECT start_at, vehicle_id, error_type FROM error_episodes "
        "WHERE start_at >= ? AND start_at < ? ORDER BY start_at DESC, vehicle_id, error_type",
        [START, NOW],
    ).fetchall()
    return [(row[0].astimezone(UTC), int(row[1]), str(row[2])) for row in rows]


@pytest.mark.parametrize(
    "crowded_first_day",
    [False, True],  # evenly spread; most episodes long ago (the first read is too short)
)
def test_newest_points_read_from_the_end_are_exact(
    cursor: duckdb.DuckDBPyConnection,
    monkeypatch: pytest.MonkeyPatch,
    crowded_first_day: bool,
) -> None:
    monkeypatch.setattr(failure_map_module, "MAX_POINTS", 40)
    _track(cursor, width=40, height=20)
    if crowded_first_day:
        starts = [START + timedelta(seconds=37 * i) for i in range(900)]
        starts += [NOW - timedelta(hours=7 * i + 1) for i in range(12)]
    else:
        starts = [START + timedelta(minutes=9 * i + 1) for i in range(900)]
    _errors(cursor, starts, x0=5.0)
    (layer,) = _run(cursor).maps
    assert layer.points_total == len(starts)
    newest = _truth(cursor)[:40]
    points = [
        (datetime.fromisoformat(p["start"]), p["vehicle_id"], p["error_type"]) for p in layer.points
    ]
    assert points == newest[::-1]
    assert sum(cell[2] for cell in layer.density.cells) == len(starts)


def test_density_counts_every_episode_on_the_union_of_track_and_errors(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    _track(cursor, width=40, height=20)
    starts = [START + timedelta(minutes=11 * i + 2) for i in range(300)]
    _errors(cursor, starts, x0=30.0)  # up to x = 50 m: beyond the track's 40 m
    (layer,) = _run(cursor).maps
    assert (layer.bounds.min_x, layer.bounds.max_x) == (0.0, 50.0)
    assert (layer.bounds.min_y, layer.bounds.max_y) == (0.0, 20.0)
    density = layer.density
    assert (density.origin_x, density.origin_y, density.cell_size) == (0.0, 0.0, 50 / 40)
    positions = cursor.execute("SELECT x, y FROM error_episodes").fetchall()
    expected = Counter(
        (min(int(x // density.cell_size), density.columns - 1), int(y // density.cell_size))
        for x, y in positions
    )
    assert {(i, j): n for i, j, n in density.cells} == dict(expected)
    # The track keeps its own grid: 120 cells over its 40 m.
    assert layer.track.cell_size == 40 / 120 and layer.track.origin_x == 0.0
    assert max(i for i, _, _ in layer.track.cells) == layer.track.columns - 1 == 119


def test_cached_layout_and_bounds_guess_give_the_uncached_answer(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    _track(cursor, width=40, height=20)
    # Beyond the track (x up to 50 m), the FATAL ones less far than all of them.
    _errors(cursor, [START + timedelta(minutes=13 * i + 5) for i in range(400)], x0=30.0)
    cache = LayoutCache()
    fatal = ErrorFilter(levels=("FATAL",))
    # Each request guesses the density grid from the one before; a wrong guess is redone.
    for errors in (fatal, ErrorFilter(), fatal, ErrorFilter(error_type="type1")):
        cached = _run(cursor, errors=errors, layouts=cache)
        assert cached == _run(cursor, errors=errors)


def test_cached_layout_is_reused_until_its_track_points_change(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    _track(cursor, width=40, height=20)
    cache = LayoutCache()
    first = site_layout(cursor, _scope(), now=NOW, cache=cache)
    assert site_layout(cursor, _scope(), now=NOW + timedelta(minutes=30), cache=cache) is first
    cursor.execute(
        "INSERT INTO track_points VALUES (2, ?, 80.0, 20.0, ?, 1.0)",
        [NOW - timedelta(hours=2), MAP],
    )
    redrawn = site_layout(cursor, _scope(), now=NOW, cache=cache)
    assert redrawn is not first
    assert redrawn[MAP].bounds.max_x == 80.0
    assert redrawn == site_layout(cursor, _scope(), now=NOW, cache=None)


def _mixed_errors(cursor: duckdb.DuckDBPyConnection, *, count: int, first: datetime) -> None:
    """Episodes on two maps, a fifth without a position, six sharing each instant (ties at
    the edge of the newest points, broken by vehicle and type as the SQL's order does),
    levels in any case."""
    cursor.execute(
        "INSERT INTO error_episodes SELECT 1 + i % 2, 'type' || (i % 6), "
        "['warning', 'URGENT', 'Fatal', 'CRITICAL'][1 + i % 4], 'd' || i, '[]', s, "
        "s + INTERVAL 30 SECOND, CASE WHEN i % 5 = 0 THEN NULL ELSE i * 7 % 33 END, "
        "CASE WHEN i % 5 = 0 THEN NULL ELSE i * 3 % 13 - 4 END, "
        "CASE WHEN i % 3 = 0 THEN 'hall-2' ELSE ? END, '' "
        "FROM (SELECT ?::TIMESTAMPTZ + to_minutes((i // 6) * 17) AS s, i FROM range(?) t(i))",
        [MAP, first, count],
    )


def test_a_density_cell_filters_the_episodes_it_counts(cursor: duckdb.DuckDBPyConnection) -> None:
    """Every cell's filter lists exactly the episodes the cell counts: positions on whole
    metres lie on the cells' edges (1.25 m), those at 50 m on the grid's far edge."""
    _track(cursor, width=40, height=20)
    _errors(cursor, [START + timedelta(minutes=11 * i + 2) for i in range(300)], x0=30.0)
    (layer,) = _run(cursor).maps
    grid = layer.density
    seen: set[str] = set()
    for column, row, count in grid.cells:
        cell = MapCell(
            MAP, grid.origin_x, grid.origin_y, grid.cell_size, grid.columns, grid.rows, column, row
        )
        listed = error_history(
            cursor,
            _scope(),
            now=NOW,
            page=PageRequest(page_size=500),
            errors=ErrorFilter(cell=cell),
        )
        assert listed.total == count
        assert all(
            (min(int(e.x // grid.cell_size), grid.columns - 1), int(e.y // grid.cell_size))
            == (column, row)
            for e in listed.items
            if e.x is not None and e.y is not None
        )
        seen |= {e.description for e in listed.items}
    assert len(seen) == 300  # each episode in exactly one cell's list
    on_far_edge = cursor.execute("SELECT count(*) FROM error_episodes WHERE x = 50").fetchone()
    assert on_far_edge is not None and on_far_edge[0] > 0


def test_a_cell_of_a_made_up_grid_holds_only_positions_on_that_grid(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    """Errors lie at x 30..62 m, y -4..8 m: a grid far away holds none in its edge cells, one
    over x 0..40, y 0..10 (4 by 1 cells of 10 m) holds in its last column those at 30..40 m."""
    _track(cursor, width=40, height=20)
    _errors(cursor, [START + timedelta(minutes=11 * i + 2) for i in range(300)], x0=30.0)

    def listed(*grid: float, column: int, row: int) -> int:
        origin_x, origin_y, size, columns, rows = grid
        cell = MapCell(MAP, origin_x, origin_y, size, int(columns), int(rows), column, row)
        page = PageRequest(page_size=1)
        return error_history(
            cursor, _scope(), now=NOW, page=page, errors=ErrorFilter(cell=cell)
        ).total

    assert listed(1e6, 1e6, 1.0, 1, 1, column=0, row=0) == 0
    assert listed(-1e6, -1e6, 1.0, 1, 1, column=0, row=0) == 0
    in_last_column = cursor.execute(
        "SELECT count(*) FROM error_episodes WHERE map_id = ? "
        "AND x BETWEEN 30 AND 40 AND y BETWEEN 0 AND 10",
        [MAP],
    ).fetchone()
    assert in_last_column is not None and in_last_column[0] > 0
    assert listed(0.0, 0.0, 10.0, 4, 1, column=3, row=0) == in_last_column[0]


def test_filters_two_maps_and_unpositioned_episodes(
    cursor: duckdb.DuckDBPyConnection, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(failure_map_module, "MAX_POINTS", 25)
    _track(cursor, width=40, height=20)
    _mixed_errors(cursor, count=700, first=START)
    answer = _run(cursor)
    assert [layer.map_id for layer in answer.maps] == [MAP, "hall-2"]
    assert sum(layer.points_total for layer in answer.maps) == 700 - 140  # positioned only
    assert all(len(layer.points) == 25 for layer in answer.maps)
    # Later episodes: newer ones count, those before T do not.
    _mixed_errors(cursor, count=60, first=START + timedelta(hours=100, seconds=1))
    _mixed_errors(cursor, count=30, first=START - timedelta(days=1))  # before T
    assert sum(layer.points_total for layer in _run(cursor).maps) == 560 + 48


def test_an_older_snapshot_sees_its_own_episodes(
    cursor: duckdb.DuckDBPyConnection, fact_store: FactStore
) -> None:
    _track(cursor, width=40, height=20)
    _mixed_errors(cursor, count=100, first=START)
    older = fact_store.cursor()
    try:
        older.execute("BEGIN TRANSACTION")
        older.execute("SELECT count(*) FROM error_episodes").fetchall()
        _mixed_errors(cursor, count=50, first=START + timedelta(days=2))
        assert sum(layer.points_total for layer in _run(cursor).maps) == 80 + 40
        assert sum(layer.points_total for layer in _run(older).maps) == 80
    finally:
        older.close()


def test_point_times_are_utc_iso_text_to_the_truncated_millisecond(
    cursor: duckdb.DuckDBPyConnection,
) -> None:
    _track(cursor, width=40, height=20)
    starts = [
        START + timedelta(hours=1, microseconds=123_999),
        START + timedelta(days=2, hours=23, minutes=59, seconds=59, microseconds=999_999),
        START + timedelta(days=3),
    ]
    _errors(cursor, starts, x0=5.0)
    (layer,) = _run(cursor).maps
    assert [point["start"] for point in layer.points] == [
        "2026-03-10T01:00:00.123Z",
        "2026-03-12T23:59:59.999Z",
        "2026-03-13T00:00:00.000Z",
    ]
