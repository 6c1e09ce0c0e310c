"""The orders in memory (``sorted_runs``): the order figures of long periods, as
``summarize_orders`` gives them from SQL.

Two orderings of the same orders:
- by vehicle (runs of one vehicle and outcome): Processes, each vehicle's percentiles two
  lookups per quantile, the fleet's a search over the union of the vehicles' runs;
- by workflow (runs of one workflow and outcome, each order's vehicle and rowid alongside):
  the Workflows table and a workflow's histogram, each workflow's percentiles two lookups;
  the orders of a page of a workflow's orders by duration.
Every figure equals ``summarize_orders``'s (sums of paused and waiting time up to the order
of floating-point additions).
"""

import numpy as np

from fleetscope.analytics.fact_rows import CURRENT, Selection
from fleetscope.analytics.marked_runs import MarkedRuns, marked_counts
from fleetscope.analytics.order_summary import (
    CYCLE_QUANTILES,
    OUTCOME_CODE,
    OUTCOMES,
    Key,
    OrderSummary,
)
from fleetscope.analytics.run_buckets import RowBuckets, buckets_of
from fleetscope.analytics.sorted_durations import VALUE_MASK
from fleetscope.analytics.sorted_runs import Ints, RunSource, SortedRuns


def _orders(*, name: str | None) -> RunSource:
    cycle_us = "epoch_us(end_at) - epoch_us(start_at)"
    return RunSource(
        table="orders",
        end="end_at",
        value=cycle_us,
        row_class=OUTCOME_CODE,
        name=name,
        weights=("paused_s", "waiting_s", cycle_us),  # the order of ``_sum_groups``
        # A workflow's orders by cycle time: a page's orders read back by ``rowid``.
        rowids=name is not None,
    )


ORDERS_BY_VEHICLE = _orders(name=None)
ORDERS_BY_WORKFLOW = _orders(name="workflow")


def _marked_buckets(
    runs: SortedRuns, selection: Selection, *, sums: bool = True
) -> list[tuple[int, MarkedRuns]]:
    placed = buckets_of(runs, selection)
    return [
        (bucket, MarkedRuns.of(runs, placed, bucket, sums=sums))
        for bucket in sorted({b for part in selection.slices for _, b in part.windows})
    ]


def _sum_groups(marked: MarkedRuns, present: Ints, groups: list[Key]) -> dict[Key, OrderSummary]:
    """Counts and sums of the ``present`` runs added up per group (one key per run)."""
    runs = marked.runs
    classes = runs.run_classes[present].tolist()
    counts = marked.counts[present].tolist()
    paused, waiting, cycles = (marked.sums[column][present].tolist() for column in range(3))
    summaries: dict[Key, OrderSummary] = {}
    for i, group in enumerate(groups):
        if classes[i] >= len(OUTCOMES):  # not an outcome the derivation writes
            continue
        summary = summaries.setdefault(group, OrderSummary())
        outcome = OUTCOMES[classes[i]]
        summary.outcomes[outcome] = summary.outcomes.get(outcome, 0) + counts[i]
        summary.paused_s += paused[i]
        summary.waiting_s += waiting[i]
        if classes[i] == 0:
            summary.cycle_sum_us += cycles[i]
    return summaries


def _finished(marked: MarkedRuns, present: Ints) -> Ints:
    found: Ints = present[marked.runs.run_classes[present] == 0]
    return found


def summarize_runs(
    runs: SortedRuns, selection: Selection, *, by_vehicle: bool
) -> dict[Key, OrderSummary]:
    """``summarize_orders`` of the orders ending in T (``key="vehicle_id", fleet=True``
    with ``by_vehicle``, else ``key=None``) from runs of ``ORDERS_BY_VEHICLE``."""
    result: dict[Key, OrderSummary] = {}
    for bucket, marked in _marked_buckets(runs, selection):
        present = marked.present()
        vehicles = runs.run_groups[present].tolist()
        per_vehicle = _sum_groups(marked, present, [(v, bucket) for v in vehicles])
        finished = _finished(marked, present)
        if by_vehicle:
            found = marked.figures(finished, CYCLE_QUANTILES)
            for run, figures in zip(finished.tolist(), found, strict=True):
                per_vehicle[(int(runs.run_groups[run]), bucket)].cycle = figures
            result.update(per_vehicle)
        if per_vehicle:
            fleet = OrderSummary()
            for summary in per_vehicle.values():
                fleet.add(summary)
            fleet.cycle = marked.union(finished, CYCLE_QUANTILES)
            result[(None, bucket)] = fleet
    return result


def summarize_workflows(
    runs: SortedRuns, selection: Selection, *, workflow: str | None = None
) -> dict[Key, OrderSummary]:
    """From runs of ``ORDERS_BY_WORKFLOW``: ``summarize_orders(key="workflow", sums=False)``
    of the orders ending in T, or with ``workflow``, ``key=None`` of that workflow's orders
    (with the sums)."""
    names = runs.names
    result: dict[Key, OrderSummary] = {}
    for bucket, marked in _marked_buckets(runs, selection, sums=workflow is not None):
        present = marked.present()
        if workflow is not None:
            wanted = names.index(workflow) if workflow in names else -1
            present = present[runs.run_groups[present] == wanted]
        numbers = runs.run_groups[present].tolist()
        summaries = _sum_groups(marked, present, [(number, bucket) for number in numbers])
        finished = _finished(marked, present)
        found = marked.figures(finished, CYCLE_QUANTILES)
        for number, figures in zip(runs.run_groups[finished].tolist(), found, strict=True):
            summaries[(number, bucket)].cycle = figures
        for (number, _), summary in summaries.items():
            result[(None if workflow else names[number], bucket)] = summary
    return result


def _workflow_runs(runs: SortedRuns, *, workflow: str, outcome: str | None) -> Ints:
    """The runs of ``workflow`` (of ``outcome``)."""
    chosen = runs.run_groups == runs.names.index(workflow)
    if outcome is not None:
        chosen &= runs.run_classes == OUTCOMES.index(outcome)
    return np.flatnonzero(chosen)


def count_workflow_orders(
    runs: SortedRuns, placed: RowBuckets, *, workflow: str, outcome: str | None
) -> int:
    """From runs of ``ORDERS_BY_WORKFLOW`` and their rows in T (``buckets_of``): the orders
    of ``workflow`` (of ``outcome``) ending in T (its current bucket)."""
    if workflow not in runs.names:
        return 0
    counts = marked_counts(runs, placed, CURRENT)
    return int(counts[_workflow_runs(runs, workflow=workflow, outcome=outcome)].sum())


def longest_workflow_orders(
    runs: SortedRuns,
    placed: RowBuckets,
    *,
    workflow: str,
    outcome: str | None,
    count: int,
    longest: bool,
) -> Ints | None:
    """From runs of ``ORDERS_BY_WORKFLOW`` that keep rowids (else None) and their rows in T
    (``buckets_of``): the ``rowid`` of the ``count`` orders of ``workflow`` (of ``outcome``)
    ending in T with the longest cycle times (``longest``, else the shortest), and of every
    other order as long as the last of them (ties: any of them may belong to a page). A page
    of the orders sorted by duration is then read from these rows alone, not from all of
    T's."""
    if runs.rowids is None:
        return None
    if workflow not in runs.names or count <= 0:
        return np.zeros(0, np.int64)
    parts = []
    gathered = placed.gathered_in(CURRENT)
    for run in _workflow_runs(runs, workflow=workflow, outcome=outcome).tolist():
        start, end = int(runs.run_starts[run]), int(runs.run_ends[run])
        if placed.buckets is None:
            first, last = np.searchsorted(gathered, [start, end]).tolist()
            parts.append(gathered[first:last])
        else:
            parts.append(np.flatnonzero(placed.buckets[start:end] == CURRENT) + start)
    rows = np.concatenate([np.zeros(0, np.int64), *parts])
    if count < len(rows):
        values = runs.keys[rows] & VALUE_MASK  # the cycle time, offset alike for all
        at = len(rows) - count if longest else count - 1
        edge = np.partition(values, at)[at]
        rows = rows[values >= edge] if longest else rows[values <= edge]
    chosen: Ints = runs.rowids[rows]
    return chosen
