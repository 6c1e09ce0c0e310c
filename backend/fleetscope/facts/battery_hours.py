"""The battery page's measures per vehicle and UTC hour (``battery_hourly``), from the samples.

The battery page draws lines and fits health over a year of samples (100 vehicles: 5.3 M
rows, six per hour); its figures compose exactly from these hourly rows (900 k), so a long
period reads those and only the samples of partial hours. Per hour and vehicle:
- the lowest and the highest charge, each at its earliest instant (epoch microseconds);
- the health (SoH) samples' count and the sums of x, y, x², x·y, with x the seconds after
  the start of the hour (small, so the sums lose nothing to cancellation) and y the SoH:
  the least-squares moments of any set of hours follow from them exactly;
- the latest SoH sample and its instant.

The rows are one ``GROUP BY`` over the samples (``unit_aggregates``): the migration that
adds the table and the fleet generator fill it with it, the fact store's writer recomputes
the hours each batch touched with it (``refresh``), and analytics groups the samples of
partial hours with it, so stored and read rows follow one definition. A recomputation
from the stored samples, rather than an addition of the batch's samples to the stored
row, keeps the earliest-instant rules exact when samples arrive late.
"""

from collections.abc import Iterable
from datetime import UTC, datetime

import duckdb

from fleetscope.facts.model import BatterySample

TABLE = "battery_hourly"
MICROS_PER_HOUR = 3_600_000_000

CREATE_TABLE = f"""CREATE TABLE {TABLE} (
    vehicle_id INTEGER NOT NULL,
    hour_utc TIMESTAMPTZ NOT NULL,
    low DOUBLE NOT NULL,
    low_at BIGINT NOT NULL,
    high DOUBLE NOT NULL,
    high_at BIGINT NOT NULL,
    health_n BIGINT NOT NULL,
    health_x DOUBLE NOT NULL,
    health_y DOUBLE NOT NULL,
    health_xx DOUBLE NOT NULL,
    health_xy DOUBLE NOT NULL,
    health_last_at BIGINT,
    health_last DOUBLE
)"""

# The measure columns in table order (after vehicle_id, hour_utc).
MEASURE_COLUMNS = (
    "low",
    "low_at",
    "high",
    "high_at",
    "health_n",
    "health_x",
    "health_y",
    "health_xx",
    "health_xy",
    "health_last_at",
    "health_last",
)

_HEALTH = "WHERE health IS NOT NULL"


def unit_aggregates() -> str:
    """The measures of a group of samples, over columns ``t`` (epoch microseconds),
    ``x`` (seconds after the start of the group's unit: its hour, or a time slot),
    ``charge`` and ``health``; named as ``MEASURE_COLUMNS``. Ties: the earliest instant
    (a struct orders by charge, then by time), the largest SoH among samples at one
    instant."""
    return (
        "min(charge) AS low, arg_min(t, (charge, t)) AS low_at, "
        "max(charge) AS high, arg_max(t, (charge, -t)) AS high_at, "
        "count(health) AS health_n, "
        f"coalesce(sum(x) FILTER ({_HEALTH}), 0) AS health_x, "
        "coalesce(sum(health), 0) AS health_y, "
        f"coalesce(sum(x * x) FILTER ({_HEALTH}), 0) AS health_xx, "
        "coalesce(sum(x * health), 0) AS health_xy, "
        f"max(t) FILTER ({_HEALTH}) AS health_last_at, "
        f"arg_max(health, (t, health)) FILTER ({_HEALTH}) AS health_last"
    )


def _hourly_rows(samples: str) -> str:
    """``battery_hourly`` rows of the samples subquery ``samples`` (columns vehicle_id,
    sampled_at, charge, health), in time order as ingestion appends them (the zone maps
    then skip other periods)."""
    hour = f"t // {MICROS_PER_HOUR} * {MICROS_PER_HOUR}"
    return (
        f"SELECT vehicle_id, make_timestamptz(hour_us) AS hour_utc, {unit_aggregates()} "  # noqa: S608 - constants only
        f"FROM (SELECT vehicle_id, t, {hour} AS hour_us, (t - {hour}) / 1e6 AS x, charge, "
        "health FROM (SELECT vehicle_id, epoch_us(sampled_at) AS t, charge, health "
        f"FROM ({samples}))) GROUP BY vehicle_id, hour_us ORDER BY hour_us, vehicle_id"
    )


def fill_sql(*, target: str = TABLE) -> str:
    """The statement adding the rows of all stored samples to ``target`` (a constant)."""
    return f"INSERT INTO {target} {_hourly_rows('SELECT * FROM battery_samples')}"  # noqa: S608 - constants only


def fill(connection: duckdb.DuckDBPyConnection) -> None:
    """All hours of all stored samples, into an empty table."""
    connection.execute(fill_sql())


def hours_of(samples: Iterable[BatterySample]) -> set[tuple[int, datetime]]:
    """The (vehicle, UTC hour) of each sample (a backfill folds millions: epoch arithmetic,
    not a time zone conversion per sample)."""
    hours = {(sample.vehicle_id, int(sample.at.timestamp()) // 3600) for sample in samples}
    return {(vehicle, datetime.fromtimestamp(hour * 3600, UTC)) for vehicle, hour in hours}


def refresh(connection: duckdb.DuckDBPyConnection, hours: set[tuple[int, datetime]]) -> None:
    """Recompute the rows of ``hours`` (vehicle, UTC hour) from the stored samples, in the
    caller's transaction (after the batch's samples were inserted)."""
    if not hours:
        return
    vehicles = [vehicle for vehicle, _ in hours]
    starts = [hour for _, hour in hours]
    first, last = min(starts), max(starts)
    touched = "(vehicle_id, hour_utc) IN (SELECT unnest(?::INTEGER[]), unnest(?::TIMESTAMPTZ[]))"
    connection.execute(
        f"DELETE FROM {TABLE} WHERE hour_utc BETWEEN ? AND ? AND {touched}",  # noqa: S608 - constants only
        [first, last, vehicles, starts],
    )
    # The samples of the touched vehicles from the first hour's start to the last one's
    # end (on the column, so that DuckDB skips other row groups), then only the hours.
    samples = (
        "SELECT * FROM battery_samples WHERE sampled_at >= ? "
        "AND sampled_at < ? + INTERVAL 1 HOUR AND list_contains(?::INTEGER[], vehicle_id)"
    )
    connection.execute(
        f"INSERT INTO {TABLE} SELECT * FROM ({_hourly_rows(samples)}) WHERE {touched}",  # noqa: S608 - constants only
        [first, last, sorted(set(vehicles)), vehicles, starts],
    )
