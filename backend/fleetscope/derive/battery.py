"""Battery samples and charge sessions.

Samples: the first report (also after an offline gap), then whenever the charge moved by 1
percentage point or more from the last sample, crossed ``LOW_CHARGE`` (20 %: time below it
is counted to the report that crosses back), the charging flag changed, or a reported state
of health differs from the last one sampled (a battery may report it only now and then);
and at every whole minute (UTC). A report on a whole minute is that minute's sample; when
the minute passes between two reports, a sample at the minute carries the last report's
charge, which holds there. So no sample's hold crosses a whole minute, and the bounds of T
(midnight, a shift's start or end: whole minutes in every zone) split no hold.

Each sample also carries what the reports since the previous sample held (product.md
section 3, "mean charge" and "equivalent full cycles"): the seconds from each report to the
next (``held_s``), the charge integrated over them (each reported charge holds until the
next report, ``held_charge_s``), the lowest charge that held (``held_low``: a report that
is no sample still counts for the minimum) and the percentage points the charge fell from
report to report (``discharged``, the sample's own fall included). A fall happened while the
charge before it held, so it counts with that hold: in the minute before a sample on a
whole minute (facts/battery_hours.py). The last report before the vehicle goes offline
holds until then: a closing sample at that instant (``closes``) carries its hold. No charge
holds across an offline gap (nothing is known there); a fall across it still counts as
discharge. Sums of these over the samples of whole minutes give the time-weighted mean
charge, the minimum and the discharge of those minutes, exactly, whatever the sampling.

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
# Reported charges are decimals that binary floats hold inexactly (64.6 - 63.6 is
# 0.99999...): a step counts as whole within this much.
_STEP_TOLERANCE = 1e-9
SAMPLE_EVERY = timedelta(minutes=1)  # the whole minutes at which a sample falls
LOW_CHARGE = 20.0  # percent; the KPI "time below 20 %"


def open_hold_span(
    held_until: datetime | None,
    held_s: float,
    last_message_at: datetime | None,
    /,
    *,
    now: datetime,
    offline_after: timedelta,
) -> tuple[datetime, datetime, datetime] | None:
    """The hold no sample carries yet, as the live status keeps it (``LiveStatus``): its
    start (the last sample, ``held_s`` before ``held_until``), ``held_until`` (from where the
    last report's charge holds on), and where that ends: now, or where silence turns
    offline. None when nothing of it is known at ``now``."""
    if held_until is None or last_message_at is None or now < held_until:
        return None
    start = held_until - timedelta(seconds=held_s)
    return start, held_until, min(now, last_message_at + offline_after)


@dataclass(slots=True)
class _Session:
    start: datetime
    start_charge: float
    peak_before: float


@dataclass(slots=True)
class _Held:
    """The reports' hold since the last sample (module text)."""

    # Where the hold has reached: the last report, or a whole minute's sample after it;
    # None after an offline gap.
    report_at: datetime | None = None
    seconds: float = 0.0
    charge_seconds: float = 0.0
    discharged: float = 0.0
    lowest: float | None = None  # the lowest charge that held


class BatteryTracker:
    __slots__ = (
        "held",
        "last_charge",
        "peak",
        "sample_at",
        "sample_charge",
        "sample_charging",
        "sample_health",
        "session",
        "vehicle_id",
    )

    def __init__(self, *, vehicle_id: int) -> None:
        self.vehicle_id = vehicle_id
        self.sample_at: datetime | None = None
        self.sample_charge = 0.0
        self.sample_charging = False
        self.sample_health: float | None = None
        self.last_charge: float | None = None
        self.peak: float | None = None  # highest charge since the previous session ended
        self.session: _Session | None = None
        self.held = _Held()

    def update(self, *, at: datetime, battery: Battery, facts: list[Any]) -> None:
        charge = battery.charge
        charging = battery.charging
        previous = self.last_charge
        if previous is not None:
            self._hold(until=at, charge=previous, facts=facts)
        held = self.held
        if held.report_at is None or at > held.report_at:
            held.report_at = at
        if previous is not None and charge < previous:
            held.discharged += previous - charge
        sample_at = self.sample_at
        on_minute = at.second == 0 and at.microsecond == 0
        if (
            sample_at is None
            or (on_minute and at > sample_at)
            or charging is not self.sample_charging
            or abs(charge - self.sample_charge) >= SAMPLE_STEP - _STEP_TOLERANCE
            or (charge < LOW_CHARGE) is not (self.sample_charge < LOW_CHARGE)
            or (battery.health is not None and battery.health != self.sample_health)
        ):
            facts.append(self._sample(at, charge, charging, battery))
            self._restart(at, charge=charge, charging=charging, health=battery.health)
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
        """The vehicle went offline at ``at``: the last report's charge holds until then,
        and a closing sample there carries what the reports held since the last sample (it
        ends the step of time below 20 % and starts none); an open session ends with the
        last charge seen. The first report after the gap is a sample again."""
        charge = self.last_charge
        if self.held.report_at is not None and charge is not None:
            closes_at = max(at, self.held.report_at)
            self._hold(until=closes_at, charge=charge, facts=facts)
            if self.held.seconds or self.held.discharged:
                closing = self._sample(closes_at, charge, self.sample_charging, None, closes=True)
                facts.append(closing)
        self.held = _Held()
        self.sample_at = None
        if self.session is not None and charge is not None:
            self._end(self.session, at, charge, facts)

    def _hold(self, *, until: datetime, charge: float, facts: list[Any]) -> None:
        """``charge`` (the last report's) holds from the hold's last instant up to
        ``until``; at each whole minute on the way a sample at that charge carries the hold
        so far, so that no hold crosses a whole minute."""
        held = self.held
        if held.report_at is None or until <= held.report_at:
            return
        minute = held.report_at.replace(second=0, microsecond=0) + SAMPLE_EVERY
        while minute < until:
            self._add_hold(minute, charge)
            facts.append(self._sample(minute, charge, self.sample_charging, None))
            self._restart(minute, charge=charge, charging=self.sample_charging, health=None)
            minute += SAMPLE_EVERY
        self._add_hold(until, charge)

    def _add_hold(self, until: datetime, charge: float) -> None:
        held = self.held
        if held.report_at is not None and until > held.report_at:
            step = (until - held.report_at).total_seconds()
            held.seconds += step
            held.charge_seconds += charge * step
            held.report_at = until
            if held.lowest is None or charge < held.lowest:
                held.lowest = charge

    def _restart(
        self, at: datetime, *, charge: float, charging: bool, health: float | None
    ) -> None:
        """A sample at ``at`` was taken: the next one's hold starts there."""
        report_at = self.held.report_at
        self.held = _Held(report_at=at if report_at is None else max(at, report_at))
        self.sample_at = at
        self.sample_charge = charge
        self.sample_charging = charging
        if health is not None:
            self.sample_health = health

    def _sample(
        self,
        at: datetime,
        charge: float,
        charging: bool,
        battery: Battery | None,
        *,
        closes: bool = False,
    ) -> BatterySample:
        """A sample carrying what the reports held since the previous one (``self.held``)."""
        held = self.held
        return BatterySample(
            self.vehicle_id,
            at,
            charge,
            charging,
            None if battery is None else battery.voltage,
            None if battery is None else battery.health,
            held.seconds,
            held.charge_seconds,
            held.discharged,
            closes=closes,
            held_low=held.lowest,
        )

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
            "sample_health": self.sample_health,
            "last_charge": self.last_charge,
            "peak": self.peak,
            "held": [
                dump_time(self.held.report_at),
                self.held.seconds,
                self.held.charge_seconds,
                self.held.discharged,
                self.held.lowest,
            ],
            "session": None
            if session is None
            else [dump_time(session.start), session.start_charge, session.peak_before],
        }

    def load(self, data: dict[str, Any]) -> None:
        sample_at, self.sample_charge, self.sample_charging = data["sample"]
        self.sample_at = load_time(sample_at)
        # Snapshots written before health was tracked: the next reported health is sampled.
        self.sample_health = data.get("sample_health")
        self.last_charge = data["last_charge"]
        self.peak = data["peak"]
        # Snapshots written before the hold was recorded start one at the next report, those
        # before its lowest charge was, without it.
        report_at, seconds, charge_seconds, discharged, *lowest = data.get(
            "held", [None, 0.0, 0.0, 0.0]
        )
        self.held = _Held(load_time(report_at), seconds, charge_seconds, discharged, *lowest)
        session = data["session"]
        self.session = (
            None
            if session is None
            else _Session(load_time_required(session[0]), session[1], session[2])
        )
