"""The measure matrix and the vectorised KPI glossary, without a fact store."""

import math

import numpy as np
import pytest

from fleetscope.analytics.core.kpis import kpi_columns, kpis_at
from fleetscope.analytics.core.measure_table import COLUMN, COLUMNS, MeasureTable, empty_rows
from fleetscope.analytics.core.models import Kpis
from fleetscope.analytics.productivity.history import KpiGrid

from .named_measures import Measures, compute_kpis, measures_of, named, row_of


def _values(**named: float) -> np.ndarray:
    row = empty_rows(1)
    for name, value in named.items():
        row[0, COLUMN[name]] = value
    return row


def test_rows_of_the_same_key_add_up_and_the_minimum_stays_a_minimum() -> None:
    table = MeasureTable()
    first = np.vstack([_values(working_s=10, battery_charge_min=40), _values(idle_s=5)])
    table.add_rows(vehicles=[1, 2], buckets=[0, 0], values=first)
    table.add_rows(vehicles=[1], buckets=[0], values=_values(working_s=2.5, battery_charge_min=35))
    table.add((2, 0), "orders_finished", 3)
    table.add_minimum((2, 0), "battery_charge_min", 80.0)
    table.add_minimum((2, 0), "battery_charge_min", None)

    one, two = named(table, (1, 0)), named(table, (2, 0))
    assert one.states["working"] == 12.5 and one.battery_charge_min == 35
    assert two.states["idle"] == 5 and two.orders_finished == 3
    assert two.battery_charge_min == 80
    assert named(table, (3, 0)) == Measures()  # never added: zero measures


def test_a_table_grows_past_its_first_allocation_and_merges() -> None:
    table, other = MeasureTable(), MeasureTable()
    count = 1_000
    values = np.zeros((count, len(COLUMNS)))
    values[:, COLUMN["distance_m"]] = 1.0
    values[:, COLUMN["battery_charge_min"]] = np.nan
    table.add_rows(vehicles=list(range(count)), buckets=[7] * count, values=values)
    other.add((5, 7), "distance_m", 2.0)
    other.add((5_000, 7), "errors", 1)
    table.merge(other)
    assert len(table) == count + 1
    rows = table.rows([(5, 7), (6, 7), (5_000, 7), (9, 9)])
    assert rows[:, COLUMN["distance_m"]].tolist() == [3.0, 1.0, 0.0, 0.0]
    assert rows[:, COLUMN["errors"]].tolist() == [0.0, 0.0, 1.0, 0.0]
    assert math.isnan(rows[3, COLUMN["battery_charge_min"]])


def test_single_additions_past_the_first_allocation_land_in_their_rows() -> None:
    """The raw pieces of a night shift add one measure per vehicle; the addition that grows
    the table must write into the grown one (a 500 on Productivity per vehicle before)."""
    table = MeasureTable()
    for vehicle in range(200):
        table.add((vehicle, 0), "idle_s", float(vehicle))
        table.add_minimum((vehicle, 0), "battery_charge_min", 50.0 + vehicle)
    rows = table.rows([(vehicle, 0) for vehicle in range(200)])
    assert rows[:, COLUMN["idle_s"]].tolist() == [float(v) for v in range(200)]
    assert rows[:, COLUMN["battery_charge_min"]].tolist() == [50.0 + v for v in range(200)]


def test_measures_survive_the_round_trip_through_a_row() -> None:
    measures = Measures(orders_finished=4, distance_m=12.5, battery_charge_min=None)
    measures.states["charging"] = 30.0
    assert measures_of(row_of(measures)[0]) == measures


def test_kpi_grid_fields_are_kpis_of_the_same_kind() -> None:
    kpis = Kpis.model_fields
    for name, field in KpiGrid.model_fields.items():
        assert name in kpis
        counts = field.annotation == list[list[int | None]]  # None: a bucket without data
        assert counts == (kpis[name].annotation is int), name


def test_vectorised_kpis_equal_the_glossary_row_by_row() -> None:
    busy = Measures(orders_finished=6, orders_failed=2, stop_errors=2, stop_error_s=120.0)
    busy.states.update(working=1800.0, idle=900.0, error=300.0, offline=600.0)
    rows = np.vstack([row_of(busy), row_of(Measures())])
    columns = kpi_columns(rows, period_s=np.array([3600.0, 3600.0]))
    first, empty = kpis_at(columns, 0), kpis_at(columns, 1)
    assert first == compute_kpis(busy, period_s=3600.0)
    assert first.planned_seconds == 3000.0
    assert first.availability == pytest.approx(2700 / 3000)
    assert first.utilization == pytest.approx(1800 / 3000)
    assert first.throughput_per_hour == pytest.approx(6 / (3000 / 3600))
    assert first.order_success_rate == pytest.approx(6 / 8)
    assert first.mtbf_seconds == pytest.approx(2700 / 2)
    assert first.mttr_seconds == pytest.approx(60.0)
    assert first.no_data_seconds == 0.0
    # No denominators: no data, never 0 %.
    assert empty.availability is None and empty.throughput_per_hour is None
    assert empty.mean_charge is None and empty.min_charge is None
    assert empty.no_data_seconds == 3600.0 and empty.orders_finished == 0


def test_a_period_without_data_is_all_no_data_to_the_millisecond() -> None:
    """T clipped at a "now" with microseconds (5,193,278.550072 s) and nothing recorded: no
    data for all of T, to the millisecond of the facts, so the page shows no comparison
    instead of "+44 against 0"."""
    working = Measures()
    working.states["working"] = 3600.0
    rows = np.vstack([row_of(Measures()), row_of(working)])
    columns = kpi_columns(rows, period_s=np.array([5_193_278.550072, 7200.0004]))
    assert columns["period_seconds"].tolist() == [5_193_278.55, 7200.0]
    assert columns["no_data_seconds"].tolist() == [5_193_278.55, 3600.0]
