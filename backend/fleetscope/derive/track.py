"""Distance driven and the thinned track.

Distance adds the straight-line delta between consecutive reported positions on the same
map. A delta faster than 5 m/s is a relocalisation (or a map change), not driving: it adds
nothing. Positions not initialized/localized are ignored.

Track points are thinned to one per 0.5 m driven or, for slower creeping, one per 5 s with
any movement; a stationary vehicle adds no points. Each point carries the distance driven
since the previous point, so the points' distances sum to the total distance. Around a jump,
the distance pending before it is flushed on a point at the last position before the jump,
and the first position after it starts a new segment with distance 0.
"""

import math
from datetime import datetime, timedelta
from typing import Any

from fleetscope.derive.timecodec import dump_time, load_time
from fleetscope.facts.model import TrackPoint
from fleetscope.vda5050.model import Position

MAX_SPEED = 5.0  # m/s; faster position changes are relocalisations
POINT_EVERY_METRES = 0.5
POINT_EVERY = timedelta(seconds=5)


class TrackTracker:
    __slots__ = ("at", "map_id", "pending", "point_at", "vehicle_id", "x", "y")

    def __init__(self, *, vehicle_id: int) -> None:
        self.vehicle_id = vehicle_id
        # last reported position
        self.at: datetime | None = None
        self.x = 0.0
        self.y = 0.0
        self.map_id = ""
        self.point_at: datetime | None = None  # time of the last track point
        self.pending = 0.0  # metres driven since the last track point

    def update(self, *, at: datetime, position: Position, facts: list[Any]) -> float:
        """Applies one reported position; returns the metres driven since the previous one."""
        if not position.initialized:
            return 0.0
        x = position.x
        y = position.y
        map_id = position.map_id
        last_at = self.at
        if last_at is None:
            self._point(at, x, y, map_id, 0.0, facts)
        else:
            delta = math.hypot(x - self.x, y - self.y)
            if map_id != self.map_id or delta > MAX_SPEED * (at - last_at).total_seconds():
                if self.pending > 0.0:
                    self._point(last_at, self.x, self.y, self.map_id, self.pending, facts)
                self._point(at, x, y, map_id, 0.0, facts)
                delta = 0.0
            elif delta > 0.0:
                pending = self.pending + delta
                point_at = self.point_at
                if pending >= POINT_EVERY_METRES or (
                    point_at is not None and at - point_at >= POINT_EVERY
                ):
                    self._point(at, x, y, map_id, pending, facts)
                else:
                    self.pending = pending
            elif (
                self.pending > 0.0
                and self.point_at is not None
                and at - self.point_at >= POINT_EVERY
            ):
                self._point(at, x, y, map_id, self.pending, facts)
        self.at = at
        self.x = x
        self.y = y
        self.map_id = map_id
        return delta if last_at is not None else 0.0

    def _point(
        self, at: datetime, x: float, y: float, map_id: str, distance: float, facts: list[Any]
    ) -> None:
        facts.append(TrackPoint(self.vehicle_id, at, x, y, map_id, distance))
        self.point_at = at
        self.pending = 0.0

    def dump(self) -> list[Any]:
        return [
            dump_time(self.at),
            self.x,
            self.y,
            self.map_id,
            dump_time(self.point_at),
            self.pending,
        ]

    def load(self, data: list[Any]) -> None:
        at, self.x, self.y, self.map_id, point_at, self.pending = data
        self.at = load_time(at)
        self.point_at = load_time(point_at)
