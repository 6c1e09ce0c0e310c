"""The actions in memory (``sorted_runs``): the Actions table of long periods, as its SQL
gives it.

Two orderings of the actions, both with runs of one action type and class (each action's
vehicle alongside):
- ``ACTION_DURATIONS`` by status (finished after running, finished without, failed, any
  other) and duration: counts and failures per type from the run counts in both periods,
  the duration percentiles of the period from the finished runs;
- ``ACTION_WAITS``, the actions that ran by their wait before start: its mean (the sum of a
  weight) and median, for the period only.
"""

from dataclasses import dataclass

import numpy as np

from fleetscope.analytics.fact_rows import CURRENT, Selection
from fleetscope.analytics.marked_runs import MarkedRuns, marked_counts
from fleetscope.analytics.run_buckets import buckets_of
from fleetscope.analytics.sorted_runs import Ints, RunSource, SortedRuns

_WAIT_US = "epoch_us(started_at) - epoch_us(first_seen_at)"
ACTION_DURATIONS = RunSource(
    table="actions",
    end="end_at",
    value="CASE WHEN status = 'FINISHED' AND started_at IS NOT NULL "
    "THEN epoch_us(end_at) - epoch_us(started_at) ELSE 0 END",
    row_class="CASE WHEN status = 'FINISHED' THEN (CASE WHEN started_at IS NULL THEN 1 ELSE 0 END) "
    "WHEN status = 'FAILED' THEN 2 ELSE 3 END",
    name="action_type",
)
ACTION_WAITS = RunSource(
    table="actions",
    end="end_at",
    value=_WAIT_US,
    row_class="0",
    name="action_type",
    weights=(_WAIT_US,),
    where="started_at IS NOT NULL",
)
_FAILED = 2


@dataclass(slots=True)
class ActionFigures:
    """Of one action type in one bucket; durations and waits in the period only."""

    count: int = 0
    failed: int = 0
    duration_p50_s: float | None = None
    duration_p90_s: float | None = None
    mean_wait_s: float | None = None
    wait_p50_s: float | None = None


def _per_name(runs: SortedRuns, counts: Ints) -> dict[int, Ints]:
    """The runs with rows counted, by the number of their name."""
    present = np.flatnonzero(counts > 0)
    numbers = runs.run_groups[present]
    return {int(number): present[numbers == number] for number in np.unique(numbers).tolist()}


def action_figures(
    durations: SortedRuns, waits: SortedRuns, selection: Selection
) -> dict[tuple[str, int], ActionFigures]:
    """Per (action type, bucket): the figures of the actions ending in T."""
    result: dict[tuple[str, int], ActionFigures] = {}
    placed = buckets_of(durations, selection)
    for bucket in sorted({b for part in selection.slices for _, b in part.windows}):
        # The previous period shows counts only: no ranks, so no prefix counts.
        marked = MarkedRuns.of(durations, placed, bucket) if bucket == CURRENT else None
        counted = marked.counts if marked else marked_counts(durations, placed, bucket)
        for number, runs_at in _per_name(durations, counted).items():
            figures = result.setdefault((durations.names[number], bucket), ActionFigures())
            counts = counted[runs_at]
            classes = durations.run_classes[runs_at]
            figures.count = int(counts.sum())
            figures.failed = int(counts[classes == _FAILED].sum())
            ran = runs_at[classes == 0]
            if marked is not None and len(ran):
                found = marked.figures(ran, (0.5, 0.9), histogram=False)[0]
                figures.duration_p50_s, figures.duration_p90_s = found.quantiles
    if any(bucket == CURRENT for part in selection.slices for _, bucket in part.windows):
        waited = MarkedRuns.of(waits, buckets_of(waits, selection), CURRENT)
        for number, runs_at in _per_name(waits, waited.counts).items():
            figures = result.setdefault((waits.names[number], CURRENT), ActionFigures())
            run = runs_at[:1]  # one class
            figures.wait_p50_s = waited.figures(run, (0.5,), histogram=False)[0].quantiles[0]
            figures.mean_wait_s = float(waited.sums[0][run[0]] / waited.counts[run[0]]) / 1e6
    return result
