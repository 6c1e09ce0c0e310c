"""Error episodes: VDA 5050 errors carry no id or time, so (errorType, level, references)
identify one; it starts when it appears in ``errors[]`` and ends when it disappears.

A changed description keeps the episode (the description as at the start is kept). While the
vehicle is offline nothing is known about its errors, so open episodes stay open and end at
the first state message that no longer lists them (an episode's duration may include offline
time; time per state is unaffected because offline takes precedence over error).
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from fleetscope.derive.timecodec import dump_time, load_time_required
from fleetscope.facts.model import ErrorEpisode
from fleetscope.vda5050.model import Position, VehicleError

# (errorType, level, references sorted by key then value)
Identity = tuple[str, str, tuple[tuple[str, str], ...]]


def identity_of(error: VehicleError) -> Identity:
    # str(level) rather than level.value: the enum property costs 0.4 µs per access.
    references = error.references
    if not references:
        return (error.error_type, str(error.level), ())
    return (
        error.error_type,
        str(error.level),
        tuple(sorted((reference.key, reference.value) for reference in references)),
    )


def references_json(references: tuple[tuple[str, str], ...]) -> str:
    """The references as a JSON object, keys sorted; a key listed more than once holds its
    values as a sorted list, so episodes told apart by their references stay apart."""
    values: dict[str, list[str]] = {}
    for key, value in references:  # sorted by key, then value
        values.setdefault(key, []).append(value)
    by_key = {key: found[0] if len(found) == 1 else found for key, found in values.items()}
    return orjson.dumps(by_key, option=orjson.OPT_SORT_KEYS).decode()


@dataclass(slots=True)
class _Open:
    description: str
    start: datetime
    x: float | None
    y: float | None
    map_id: str
    order_id: str


class ErrorTracker:
    __slots__ = ("last_errors", "open", "vehicle_id")

    def __init__(self, *, vehicle_id: int) -> None:
        self.vehicle_id = vehicle_id
        self.open: dict[Identity, _Open] = {}
        # Errors of the previous call: the same list again changes nothing (a shortcut only,
        # so snapshots leave it out).
        self.last_errors: tuple[VehicleError, ...] | None = None

    def update(
        self,
        *,
        at: datetime,
        errors: tuple[VehicleError, ...],
        position: Position | None,
        order_id: str,
        facts: list[Any],
    ) -> int:
        """Applies one message's errors; returns the number of episodes that started."""
        opened = self.open
        if not errors and not opened:
            return 0
        if errors == self.last_errors:
            return 0
        self.last_errors = errors
        started = 0
        present: set[Identity] = set()
        for error in errors:
            identity = identity_of(error)
            present.add(identity)
            if identity not in opened:
                opened[identity] = _Open(
                    error.description,
                    at,
                    None if position is None else position.x,
                    None if position is None else position.y,
                    "" if position is None else position.map_id,
                    order_id,
                )
                started += 1
        if len(present) != len(opened):
            for identity in [identity for identity in opened if identity not in present]:
                facts.append(self._episode(identity, opened.pop(identity), at))
        return started

    def open_episodes(self, at: datetime) -> list[ErrorEpisode]:
        return [self._episode(identity, episode, at) for identity, episode in self.open.items()]

    def _episode(self, identity: Identity, episode: _Open, end: datetime) -> ErrorEpisode:
        error_type, level, references = identity
        return ErrorEpisode(
            self.vehicle_id,
            error_type,
            level,
            episode.description,
            references_json(references),
            episode.start,
            end,
            episode.x,
            episode.y,
            episode.map_id,
            episode.order_id,
        )

    def dump(self) -> list[list[Any]]:
        return [
            [
                error_type,
                level,
                [list(reference) for reference in references],
                episode.description,
                dump_time(episode.start),
                episode.x,
                episode.y,
                episode.map_id,
                episode.order_id,
            ]
            for (error_type, level, references), episode in self.open.items()
        ]

    def load(self, data: list[list[Any]]) -> None:
        self.open = {
            (error_type, level, tuple((key, value) for key, value in references)): _Open(
                description, load_time_required(start), x, y, map_id, order_id
            )
            for error_type, level, references, description, start, x, y, map_id, order_id in data
        }
