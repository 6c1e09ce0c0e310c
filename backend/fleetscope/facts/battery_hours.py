"""The battery page's measures per vehicle and UTC hour (``battery_hourly``), from the samples.

The battery page draws lines and fits health over a year of samples (100 vehicles: 5.3 M
rows, six per hour); its figures compose exactly from these hourly rows (900 k), so a long
period reads those and only the samples of partial hours. Per hour and vehicle:
- the lowest and the highest charge, each at its earliest instant (epoch microseconds); the
  lowest also of the samples' holds (``held_low``: a report that is no sample, at its
  sample's instant), as the minimum charge counts it;
- the health (SoH) samples' count and the sums of x, y, x², x·y, with x the seconds after
  the start of the hour (small, so the sums lose nothing to cancellation) and y the SoH:
  the least-squares moments of any set of hours follow from them exactly;
- the latest SoH sample and its instant;
- the time below 20 %: for each sample under 20 %, the step to the vehicle's next sample
  within ``reach_us`` (none without one: the latest sample's step is still open, and an
  answer up to now reads it from the live status), capped at ``offline_after`` (longer
  silence is no data, not time at low charge; the cap is the one the derivation uses for
  offline time, applied when written like it: a changed setting applies with a rebuild).
  The step belongs to the sample's hour. The derivation samples every report that crosses
  20 % (derive/battery.py), so the steps end at the report that crosses back, to the
  report. A closing sample (the instant the vehicle went offline) ends the step before it
  uncapped, to the second, and starts none;
- the percentage points the charge fell from report to report (``discharged`` of the
  samples: equivalent full cycles count the discharge inside T). A fall happened while the
  charge before it held, so it counts where that hold lies: a sample on a whole minute with
  a hold (it closes the minute before, derive/battery.py) gives its falls to the sample
  before it.

The rows are one ``GROUP BY`` over the samples (``unit_aggregates``): the migration that
adds the table and the fleet generator fill it with it, the fact store's writer recomputes
the hours each batch touched with it (``refresh``), and analytics groups the samples of
partial hours with it, so stored and read rows follow one definition. A recomputation
from the stored samples, rather than an addition of the batch's samples to the stored
row, keeps the earliest-instant rules exact when samples arrive late; the hours up to a cap
before each touched hour are recomputed too, since a new sample ends the step of the
sample before it.
"""

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import duckdb

from fleetscope.derive.battery import LOW_CHARGE as BATTERY_LOW_CHARGE
from fleetscope.derive.battery import SAMPLE_EVERY
from fleetscope.derive.config import DerivationConfig
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
    health_last DOUBLE,
    low_s DOUBLE NOT NULL
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
    "low_s",
    "discharged",  # added by fact-store migration 7: last
)
LOW_CHARGE = BATTERY_LOW_CHARGE
# Touched hours further apart than this are recomputed by separate range queries.
_NEAR = timedelta(days=2)


def cap_us(offline_after: timedelta) -> int:
    """The cap of a step under 20 % (``offline_after``) in whole microseconds."""
    return offline_after // timedelta(microseconds=1)


def reach_us(cap_us: int) -> int:
    """The longest step under 20 %: to a closing sample, which comes at most ``cap_us`` after
    the last report, itself less than ``SAMPLE_EVERY`` after the last sample."""
    return cap_us + SAMPLE_EVERY // timedelta(microseconds=1)


# The derivation's default offline timeout.
DEFAULT_CAP_US = cap_us(DerivationConfig().offline_after)

_HEALTH = "WHERE health IS NOT NULL"
_MINUTE_US = 60_000_000
# What a sample's hold carries counts with it (module text), unless it closes a whole minute:
# then with the sample before, whose next it is.
_OWN_HOLD = f"NOT (held_s > 0 AND t % {_MINUTE_US} = 0)"
_NEXT_HOLD = f"next_held_s > 0 AND next_t % {_MINUTE_US} = 0"
_DISCHARGED = (
    f"coalesce(sum(CASE WHEN {_OWN_HOLD} THEN discharged ELSE 0 END "
    f"+ CASE WHEN {_NEXT_HOLD} THEN next_discharged ELSE 0 END), 0) AS discharged"
)
# The lowest charge at a sample: its own, and its hold's lowest (a report that is no sample).
_LOWEST = (
    f"least(charge, CASE WHEN {_OWN_HOLD} THEN held_low END, "
    f"CASE WHEN {_NEXT_HOLD} THEN next_held_low END)"
)


def unit_aggregates(*, cap_us: int, discharge: bool = True) -> str:
    """The measures of a group of samples, over columns ``t`` (epoch microseconds),
    ``x`` (seconds after the start of the group's unit: its hour, or a time slot),
    ``charge``, ``health``, ``closes``, ``held_s``, ``held_low``, ``discharged``, and
    ``next_t``, ``next_closes``, ``next_held_s``, ``next_held_low`` and ``next_discharged``
    (the vehicle's next sample, NULL for none);
    named as ``MEASURE_COLUMNS``. Ties: the earliest instant (a struct orders by charge,
    then by time), the largest SoH among samples at one instant. ``cap_us``: the cap of a
    step under 20 % (an integer, formatted into the SQL). A step ends at the next sample
    within ``reach_us``; without one it is the latest sample's, still open: it counts from
    the live status (``analytics.battery.open_hold``), not here. Without ``discharge``: the
    columns before migration 7 (no ``discharged``; migration 4 fills those)."""
    cap, reach = int(cap_us), reach_us(int(cap_us))
    step = (
        f"CASE WHEN closes OR next_t IS NULL OR next_t - t > {reach} THEN 0 "
        f"WHEN next_closes THEN next_t - t ELSE least(next_t - t, {cap}) END"
    )
    return (
        f"min({_LOWEST}) AS low, arg_min(t, ({_LOWEST}, t)) AS low_at, "
        "max(charge) AS high, arg_max(t, (charge, -t)) AS high_at, "
        "count(health) AS health_n, "
        f"coalesce(sum(x) FILTER ({_HEALTH}), 0) AS health_x, "
        "coalesce(sum(health), 0) AS health_y, "
        f"coalesce(sum(x * x) FILTER ({_HEALTH}), 0) AS health_xx, "
        "coalesce(sum(x * health), 0) AS health_xy, "
        f"max(t) FILTER ({_HEALTH}) AS health_last_at, "
        f"arg_max(health, (t, health)) FILTER ({_HEALTH}) AS health_last, "
        f"coalesce(sum({step}) FILTER (WHERE charge < {LOW_CHARGE}), 0) / 1e6 AS low_s"
        + (f", {_DISCHARGED}" if discharge else "")
    )


def with_next(samples: str, following: str) -> str:
    """The rows of ``samples`` (vehicle_id, t, ...) with ``next_t``, ``next_closes``,
    ``next_held_s``, ``next_held_low`` and ``next_discharged``: the vehicle's next later
    sample among ``following`` (vehicle_id, t, closes, held_s, held_low, discharged), NULL
    for none (an ASOF join; the battery page's reading of partial hours uses the same, so
    both agree on samples that share an instant: each counts its step)."""
    return (
        "SELECT s.*, n.t AS next_t, n.closes AS next_closes, n.held_s AS next_held_s, "  # noqa: S608 - constants only
        "n.held_low AS next_held_low, n.discharged AS next_discharged FROM "
        f"({samples}) s ASOF LEFT JOIN "
        f"(SELECT vehicle_id, t, closes, held_s, held_low, discharged FROM ({following})) n "
        "ON s.vehicle_id = n.vehicle_id AND n.t > s.t"
    )


def _hourly_rows(samples: str, *, cap_us: int, discharge: bool = True) -> str:
    """``battery_hourly`` rows of the samples subquery ``samples`` (columns vehicle_id,
    sampled_at, charge, health, discharged, closes; a sample's next one is looked for among
    them: read once, as a CTE), in time order as ingestion appends them (the zone maps then
    skip other periods). Without ``discharge``: the samples of version 4 (no ``discharged``
    nor ``closes``, which closes nothing)."""
    hour = f"t // {MICROS_PER_HOUR} * {MICROS_PER_HOUR}"
    timed = "SELECT * FROM timed"
    fallen = ", held_s, held_low, discharged"
    if not discharge:
        fallen = ", 0.0 AS held_s, NULL::DOUBLE AS held_low, 0.0 AS discharged"
    closes = "closes" if discharge else "false AS closes"
    return (
        f"WITH timed AS (SELECT vehicle_id, epoch_us(sampled_at) AS t, charge, health{fallen}, "  # noqa: S608 - constants only
        f"{closes} FROM ({samples})) SELECT vehicle_id, make_timestamptz(hour_us) AS hour_utc, "
        f"{unit_aggregates(cap_us=cap_us, discharge=discharge)} FROM (SELECT vehicle_id, t, "
        f"{hour} AS hour_us, (t - {hour}) / 1e6 AS x, charge, health{fallen}, closes, next_t, "
        "next_closes, next_held_s, next_held_low, next_discharged "
        f"FROM ({with_next(timed, timed)})) "
        "GROUP BY vehicle_id, hour_us ORDER BY hour_us, vehicle_id"
    )


def fill_sql(*, cap_us: int, target: str = TABLE, discharge: bool = True) -> str:
    """The statement adding the rows of all stored samples to ``target`` (a constant);
    without ``discharge`` the columns of schema version 4."""
    rows = _hourly_rows("SELECT * FROM battery_samples", cap_us=cap_us, discharge=discharge)
    return f"INSERT INTO {target} {rows}"


def fill(connection: duckdb.DuckDBPyConnection, *, cap_us: int, discharge: bool = True) -> None:
    """All hours of all stored samples, into an empty table."""
    connection.execute(fill_sql(cap_us=cap_us, discharge=discharge))


def hours_of(samples: Iterable[BatterySample]) -> set[tuple[int, datetime]]:
    """The (vehicle, UTC hour) of each sample (a backfill folds millions: epoch arithmetic,
    not a time zone conversion per sample)."""
    hours = {(sample.vehicle_id, int(sample.at.timestamp()) // 3600) for sample in samples}
    return {(vehicle, datetime.fromtimestamp(hour * 3600, UTC)) for vehicle, hour in hours}


def refresh(
    connection: duckdb.DuckDBPyConnection, hours: set[tuple[int, datetime]], *, cap_us: int
) -> None:
    """Recompute the rows of ``hours`` (vehicle, UTC hour) from the stored samples, in the
    caller's transaction (after the batch's samples were inserted), and of the hours up to
    ``reach_us`` before each (their last step under 20 % may end at a sample of ``hours``).
    Hours far apart (a vehicle's first sample from years ago beside today's of the fleet)
    are recomputed in separate ranges: one range between them would read every sample of
    the batch's vehicles stored in between."""
    back = -(-reach_us(cap_us) // MICROS_PER_HOUR)
    hours = {
        (vehicle, hour - timedelta(hours=earlier))
        for vehicle, hour in hours
        for earlier in range(back + 1)
    }
    for group in _near_groups(hours):
        _refresh_range(connection, group, cap_us=cap_us)


def _near_groups(hours: set[tuple[int, datetime]]) -> list[list[tuple[int, datetime]]]:
    """``hours`` in groups whose consecutive hours are at most ``_NEAR`` apart."""
    groups: list[list[tuple[int, datetime]]] = []
    for key in sorted(hours, key=lambda key: key[1]):
        if groups and key[1] - groups[-1][-1][1] <= _NEAR:
            groups[-1].append(key)
        else:
            groups.append([key])
    return groups


def _refresh_range(
    connection: duckdb.DuckDBPyConnection, hours: list[tuple[int, datetime]], *, cap_us: int
) -> None:
    vehicles = [vehicle for vehicle, _ in hours]
    starts = [hour for _, hour in hours]
    first, last = min(starts), max(starts)
    touched = "(vehicle_id, hour_utc) IN (SELECT unnest(?::INTEGER[]), unnest(?::TIMESTAMPTZ[]))"
    connection.execute(
        f"DELETE FROM {TABLE} WHERE hour_utc BETWEEN ? AND ? AND {touched}",  # noqa: S608 - constants only
        [first, last, vehicles, starts],
    )
    # The samples of the touched vehicles from the first hour's start to the last one's end
    # plus the reach (the next sample of the last ones; on the column, so that DuckDB skips
    # other row groups), then only the hours.
    samples = (
        "SELECT * FROM battery_samples WHERE sampled_at >= ? AND sampled_at < ? "
        "AND list_contains(?::INTEGER[], vehicle_id)"
    )
    until = last + timedelta(hours=1, microseconds=reach_us(cap_us))
    rows = _hourly_rows(samples, cap_us=cap_us)
    connection.execute(
        f"INSERT INTO {TABLE} SELECT * FROM ({rows}) WHERE {touched}",  # noqa: S608 - constants only
        [first, until, sorted(set(vehicles)), vehicles, starts],
    )


def refill_vehicles(
    connection: duckdb.DuckDBPyConnection, vehicle_ids: list[int], *, cap_us: int
) -> None:
    """Every hour of these vehicles' stored samples, in the caller's transaction, after
    their rows were deleted (a re-derivation replaced their samples)."""
    samples = "SELECT * FROM battery_samples WHERE list_contains(?::INTEGER[], vehicle_id)"
    connection.execute(
        f"INSERT INTO {TABLE} {_hourly_rows(samples, cap_us=cap_us)}",
        [vehicle_ids],
    )
