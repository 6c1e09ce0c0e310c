"""Progress of long command-line work (demo backfill, ``import``, ``rebuild``).

On a terminal a live ``rich`` bar; otherwise (CI, a log file, ``make demo > log``) a plain
line at most every ``PLAIN_INTERVAL_S`` seconds and one at the end, without control codes.
Both show the same figures: done/total, messages, rate, elapsed and time left. The total
is in the unit that is known up front: messages, raw frames, bytes of the file, or
(``fraction``) the share of the work some other measure says is done.
"""

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

PLAIN_INTERVAL_S = 5.0


def rate(*, count: int, elapsed_s: float) -> float:
    """Items per second; 0 before any time has passed."""
    return count / elapsed_s if elapsed_s > 0 else 0.0


def time_left(*, fraction: float, elapsed_s: float) -> float | None:
    """Seconds still to go if the rest goes as fast as the part done; None while unknown."""
    if fraction <= 0 or elapsed_s <= 0:
        return None
    if fraction >= 1:
        return 0.0
    return elapsed_s * (1 - fraction) / fraction


def clock(seconds: float | None) -> str:
    """``m:ss`` or ``h:mm:ss``; ``?`` when unknown."""
    if seconds is None:
        return "?"
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True, slots=True)
class Step:
    """Where the work is: ``done`` of ``total`` in ``unit``, ``messages`` handled so far.

    ``unit`` "messages" means done counts the messages; with another unit (bytes, frames)
    the messages are shown as well. ``estimated`` marks a total extrapolated from a fraction.
    """

    done: int
    total: int | None
    messages: int
    unit: str = "messages"
    estimated: bool = False

    @property
    def fraction(self) -> float:
        if self.total is None:
            return 0.0
        if self.total <= 0:  # nothing to do: done
            return 1.0
        return min(self.done / self.total, 1.0)


def detail(step: Step, *, elapsed_s: float) -> str:
    """The figures after the bar: done/total, messages, rate, elapsed, time left."""
    total = "?" if step.total is None else f"{'~' if step.estimated else ''}{step.total:,}"
    parts = [f"{step.done:,}/{total} {step.unit}"]
    if step.unit != "messages":
        parts.append(f"{step.messages:,} messages")
    parts.append(f"{rate(count=step.messages, elapsed_s=elapsed_s):,.0f} messages/s")
    parts.append(f"elapsed {clock(elapsed_s)}")
    left = None if step.total is None else time_left(fraction=step.fraction, elapsed_s=elapsed_s)
    parts.append(f"left {clock(left)}")
    return ", ".join(parts)


def plain_line(label: str, step: Step, *, elapsed_s: float) -> str:
    """One progress line for a log: ``label: 42% done/total unit, ...``."""
    percent = "?%" if step.total is None else f"{step.fraction * 100:.0f}%"
    return f"{label}: {percent} {detail(step, elapsed_s=elapsed_s)}"


class ProgressReport:
    """Receives steps (``update``) and shows them live or as plain lines."""

    def __init__(self, label: str, *, stream: TextIO, live: Progress | None) -> None:
        self._label = label
        self._stream = stream
        self._live = live
        self._task = live.add_task(label, total=None, detail="") if live is not None else None
        self._started = time.monotonic()
        self._printed_at: float | None = None
        self._last: Step | None = None
        self.finished = False

    def update(self, step: Step) -> None:
        self._last = step
        now = time.monotonic()
        elapsed = now - self._started
        if self._live is not None:
            self._live_update(step, elapsed)
        elif self._printed_at is None or now - self._printed_at >= PLAIN_INTERVAL_S:
            self._print(step, elapsed)
            self._printed_at = now

    def finish(self, step: Step | None = None) -> None:
        """The last step (by default the last update) shown as complete; once."""
        last = step or self._last
        if last is None or self.finished:
            return
        self.finished = True
        # An unknown or extrapolated total is what was done once the work is over.
        open_ended = last.total is None or last.estimated
        final = Step(
            done=last.done if open_ended or last.total is None else max(last.done, last.total),
            total=last.done if open_ended else last.total,
            messages=last.messages,
            unit=last.unit,
            estimated=False,
        )
        if self._live is None:
            self._print(final, time.monotonic() - self._started)
        else:
            self._live_update(final, time.monotonic() - self._started)

    def _live_update(self, step: Step, elapsed_s: float) -> None:
        if self._live is not None and self._task is not None:
            detail_text = detail(step, elapsed_s=elapsed_s)
            self._live.update(self._task, completed=step.done, total=step.total, detail=detail_text)

    def _print(self, step: Step, elapsed_s: float) -> None:
        print(plain_line(self._label, step, elapsed_s=elapsed_s), file=self._stream, flush=True)


@contextmanager
def progress_report(label: str, *, stream: TextIO | None = None) -> Iterator[ProgressReport]:
    """A live bar when ``stream`` (default stderr) is a terminal, plain lines otherwise.

    On success the last step is shown as complete (100 %); after an error it stays as it was.
    """
    out = stream if stream is not None else sys.stderr
    # Decided here, not by rich: FORCE_COLOR or TTY_COMPATIBLE (set in some CI) would make
    # rich draw its bar with control codes into a log file.
    if not (out.isatty() and os.environ.get("TERM") != "dumb"):
        report = ProgressReport(label, stream=out, live=None)
        yield report
        report.finish()
        return
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[detail]}"),
    )
    console = Console(file=out, force_terminal=True)
    with Progress(*columns, console=console, transient=False) as live:
        report = ProgressReport(label, stream=out, live=live)
        yield report
        report.finish()
