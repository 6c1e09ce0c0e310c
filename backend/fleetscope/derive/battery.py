"""Battery samples and charge sessions.

Samples: the first report, then whenever the charge moved by 1 percentage point or more from
the last sample, the charging flag changed, or 60 s passed since the last sample.

Charge sessions follow the battery's charging flag (so charging continues through an error
or manual mode, which take precedence as vehicle *state*): a session starts at the first
report with charging true and ends at the first report with charging false, or when the
vehicle goes offline (the charging interval ends there; if it comes back still charging, a
new session starts). ``peak_before`` is the highest charge seen since the previous session
ended (or since the first report), including the charge at the session start.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from fleetscope.derive.timecodec import dump_time, load_time, load_time_required
from fleetscope.facts.model import BatterySample, ChargeSession
from fleetscope.vda5050.model import Battery

SAMPLE_STEP = 1.0  # percentage points
SAMPLE_EVERY = timedelta(seconds=60)


@dataclass(slots=True)
class _Session:
    start: datetime
    start_charge: float
    peak_before: float


class BatteryTracker:
    __slots__ = (
        "last_charge",
        "peak",
        "sample_at",
        "sample_charge",
        "sample_charging",
        "session",
        "vehicle_id",
    )

    def __init__(self, *, vehicle_id: int) -> None:
        self.vehicle_id = vehicle_id
        self.sample_at: datetime | None = None
        self.sample_charge = 0.0
        self.sample_charging = False
        self.last_charge: float | None = None
        self.peak: float | None = None  # highest charge since the previous session ended
        self.session: _Session | None = None

    def update(self, *, at: datetime, battery: Battery, facts: list[Any]) -> None:
        charge = battery.charge
        charging = battery.charging
        sample_at = self.sample_at
        if (
            sample_at is None
            or charging is not self.sample_charging
            or abs(charge - self.sample_charge) >= SAMPLE_STEP
            or at - sample_at >= SAMPLE_EVERY
        ):
            facts.append(
                BatterySample(
                    self.vehicle_id, at, charge, charging, battery.voltage, battery.health
                )
            )
            self.sample_at = at
            self.sample_charge = charge
            self.sample_charging = charging
        self.last_charge = charge
        session = self.session
        if session is None:
            peak = self.peak
            if peak is None or charge > peak:
                self.peak = peak = charge
            if charging:
                self.session = _Session(at, charge, peak)
        elif not charging:
            self._end(session, at, charge, facts)

    def interrupt(self, *, at: datetime, facts: list[Any]) -> None:
        """The vehicle went offline: an open session ends with the last charge seen."""
        if self.session is not None and self.last_charge is not None:
            self._end(self.session, at, self.last_charge, facts)

    def open_session(self, at: datetime) -> ChargeSession | None:
        session = self.session
        if session is None or self.last_charge is None or at <= session.start:
            return None
        return self._fact(session, at, self.last_charge)

    def _end(self, session: _Session, at: datetime, charge: float, facts: list[Any]) -> None:
        facts.append(self._fact(session, at, charge))
        self.session = None
        self.peak = charge

    def _fact(self, session: _Session, end: datetime, charge: float) -> ChargeSession:
        return ChargeSession(
            self.vehicle_id,
            session.start,
            end,
            session.start_charge,
            charge,
            session.peak_before,
        )

    def dump(self) -> dict[str, Any]:
        session = self.session
        return {
            "sample": [dump_time(self.sample_at), self.sample_charge, self.sample_charging],
            "last_charge": self.last_charge,
            "peak": self.peak,
            "session": None
            if session is None
            else [dump_time(session.start), session.start_charge, session.peak_before],
        }

    def load(self, data: dict[str, Any]) -> None:
        sample_at, self.sample_charge, self.sample_charging = data["sample"]
        self.sample_at = load_time(sample_at)
        self.last_charge = data["last_charge"]
        self.peak = data["peak"]
        session = data["session"]
        self.session = (
            None
            if session is None
            else _Session(load_time_required(session[0]), session[1], session[2])
        )
