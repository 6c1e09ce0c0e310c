"""Ground truth of a simulation: what happened, defined as the messages reveal it.

The derivation only sees message timestamps, so every truth time is the timestamp of the
message that reveals the change (never a hidden instant between two messages):

- **Span** of a vehicle: from its first message (``connection`` ONLINE, with a ``state``
  at the same millisecond) to the end of the simulation (``Truth.end``). States still open
  at the end are closed there.
- **State** (exactly one at every instant, product.md section 2, first match wins):
  ``offline`` (connection OFFLINE or CONNECTIONBROKEN from that message's time until the
  next ONLINE; after a silent stop from the last message + ``offline_after_seconds``, 65 s,
  until the vehicle's next message), ``error`` (a stopping error is active: FATAL, and in
  3.0 also CRITICAL), ``manual`` (operatingMode MANUAL), ``charging`` (battery charging),
  ``working`` (nodeStates or edgeStates not empty, an action WAITING/INITIALIZING/RUNNING/
  PAUSED, or driving), ``idle``. ``state_seconds`` sums these over the span.
- **Order**: ``start`` = first state message carrying the new orderId; ``end`` = the state
  message where it ended: ``finished`` (idle, all nodes traversed, no FAILED action),
  ``failed`` (a pick action FAILED, or a stopping error: in that message the vehicle stops,
  clears nodeStates/edgeStates and reports the order's unfinished actions FAILED),
  ``cancelled`` (the message where the cancelOrder instant action is FINISHED; the order's
  unfinished actions are FAILED there, as VDA 5050 6.6.3 demands; or the message in which
  another orderId replaces it before idle). Orders still running at the end are in
  ``open_orders`` without end and outcome.
- **Error episode**: from the first state listing the error (type + level + the nodeId
  reference) to the first state without it; ``end`` is null if active at the end.
- **Charge session**: from the state where ``charging`` becomes true to the one where it
  becomes false; ``start_charge``/``end_charge`` are the charge values in those messages.
- **Distance**: metres driven along straight edges up to the last state message; every
  node and a point at least every ``position_seconds`` while driving are in the messages.
- **Actions**: per action type, how many ended FINISHED or FAILED; ``abandoned`` counts
  actions that disappeared unfinished when another order replaced theirs.
  **Loads handled** = finished load-handling actions: pick, drop, load and unload, in any
  case (the simulator's orders have pick and drop).
- **Discharge**: the percentage points the reported charge fell from state message to state
  message (equivalent full cycles = discharge / 100).
"""

from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from fleetscope.simulator.payloads import ms_to_datetime

TRUTH_FORMAT = "fleetscope-sim-truth/1"
STATES = ("offline", "error", "manual", "charging", "working", "idle")
# VDA 5050's predefined load-handling action types (product.md section 3, "loads handled"),
# written here, not imported, so that the truth does not follow the code it checks.
LOAD_HANDLING_TYPES = frozenset({"pick", "drop", "load", "unload"})


@dataclass(slots=True)
class OrderTruth:
    manufacturer: str
    serial_number: str
    order_id: str
    workflow: str
    start: datetime
    end: datetime | None
    outcome: str | None  # finished | failed | cancelled; None while open at the end
    nodes_total: int
    nodes_traversed: int
    distance_m: float


@dataclass(slots=True)
class ErrorEpisodeTruth:
    manufacturer: str
    serial_number: str
    error_type: str
    level: str  # WARNING, URGENT, CRITICAL or FATAL (upper case whatever the version)
    node_id: str  # the errorReference nodeId
    order_id: str  # the order at the start ("" when none)
    start: datetime
    end: datetime | None


@dataclass(slots=True)
class ChargeSessionTruth:
    manufacturer: str
    serial_number: str
    start: datetime
    end: datetime | None
    start_charge: float
    end_charge: float | None


@dataclass(slots=True)
class VehicleTruth:
    manufacturer: str
    serial_number: str
    interface: str
    version: str
    first_message: datetime
    state_seconds: dict[str, float]
    distance_m: float
    loads_handled: int
    actions: dict[str, dict[str, int]]  # type -> {"finished", "failed", "abandoned"}
    messages: int
    discharged_pct: float = 0.0


@dataclass(slots=True)
class Truth:
    seed: int
    start: datetime
    end: datetime
    offline_after_seconds: float
    vehicles: list[VehicleTruth] = field(default_factory=list)
    orders: list[OrderTruth] = field(default_factory=list)
    open_orders: list[OrderTruth] = field(default_factory=list)
    error_episodes: list[ErrorEpisodeTruth] = field(default_factory=list)
    charge_sessions: list[ChargeSessionTruth] = field(default_factory=list)

    def to_json(self) -> bytes:
        document = {"format": TRUTH_FORMAT, **asdict(self)}
        return orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_UTC_Z)


def write_truth(truth: Truth, path: Path) -> None:
    path.write_bytes(truth.to_json())


def _time(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _required_time(value: str) -> datetime:
    return datetime.fromisoformat(value)


def load_truth(path: Path) -> Truth:
    """Read a truth file written by ``write_truth`` (times become aware datetimes)."""
    raw: dict[str, Any] = orjson.loads(path.read_bytes())
    if raw.get("format") != TRUTH_FORMAT:
        raise ValueError(f"{path}: not a {TRUTH_FORMAT} file")

    def order(item: dict[str, Any]) -> OrderTruth:
        return OrderTruth(
            **{**item, "start": _required_time(item["start"]), "end": _time(item["end"])}
        )

    return Truth(
        seed=raw["seed"],
        start=_required_time(raw["start"]),
        end=_required_time(raw["end"]),
        offline_after_seconds=raw["offline_after_seconds"],
        vehicles=[
            VehicleTruth(**{**v, "first_message": _required_time(v["first_message"])})
            for v in raw["vehicles"]
        ],
        orders=[order(o) for o in raw["orders"]],
        open_orders=[order(o) for o in raw["open_orders"]],
        error_episodes=[
            ErrorEpisodeTruth(**{**e, "start": _required_time(e["start"]), "end": _time(e["end"])})
            for e in raw["error_episodes"]
        ],
        charge_sessions=[
            ChargeSessionTruth(**{**c, "start": _required_time(c["start"]), "end": _time(c["end"])})
            for c in raw["charge_sessions"]
        ],
    )


class VehicleTruthRecorder:
    """Collects one vehicle's truth while it runs; ``finish`` closes it at the end."""

    def __init__(self, *, manufacturer: str, serial_number: str) -> None:
        self.manufacturer = manufacturer
        self.serial_number = serial_number
        self.first_ms: int | None = None
        self.distance_m = 0.0
        self.messages = 0
        self._changes: list[tuple[int, str]] = []
        self._orders: list[OrderTruth] = []
        self._open_order: OrderTruth | None = None
        self._open_order_odometer = 0.0
        self.errors: list[ErrorEpisodeTruth] = []
        self.charges: list[ChargeSessionTruth] = []
        self.actions: dict[str, dict[str, int]] = {}
        self.discharged_pct = 0.0
        self._reported_charge: float | None = None

    def report_charge(self, charge: float) -> None:
        """A state message reports ``charge``: a fall from the last one is discharge."""
        last = self._reported_charge
        if last is not None and charge < last:
            self.discharged_pct += last - charge
        self._reported_charge = charge

    def set_state(self, at_ms: int, state: str) -> None:
        if not self._changes or self._changes[-1][1] != state:
            self._changes.append((at_ms, state))

    def start_order(self, *, at_ms: int, order_id: str, workflow: str, nodes_total: int) -> None:
        self._open_order = OrderTruth(
            self.manufacturer,
            self.serial_number,
            order_id,
            workflow,
            ms_to_datetime(at_ms),
            None,
            None,
            nodes_total,
            1,
            0.0,
        )
        self._open_order_odometer = self.distance_m

    def end_order(self, *, at_ms: int, outcome: str, traversed: int) -> None:
        order = self._open_order
        if order is None:
            raise RuntimeError("no open order to end")
        order.end = ms_to_datetime(at_ms)
        order.outcome = outcome
        order.nodes_traversed = traversed
        order.distance_m = round(self.distance_m - self._open_order_odometer, 3)
        self._orders.append(order)
        self._open_order = None

    def count_action(self, action_type: str, outcome: str) -> None:
        counts = self.actions.setdefault(action_type, {"finished": 0, "failed": 0, "abandoned": 0})
        counts[outcome] += 1

    def start_error(
        self, *, at_ms: int, error_type: str, level: str, node_id: str, order_id: str
    ) -> ErrorEpisodeTruth:
        episode = ErrorEpisodeTruth(
            self.manufacturer,
            self.serial_number,
            error_type,
            level,
            node_id,
            order_id,
            ms_to_datetime(at_ms),
            None,
        )
        self.errors.append(episode)
        return episode

    def start_charge(self, *, at_ms: int, charge: float) -> None:
        self.charges.append(
            ChargeSessionTruth(
                self.manufacturer, self.serial_number, ms_to_datetime(at_ms), None, charge, None
            )
        )

    def end_charge(self, *, at_ms: int, charge: float) -> None:
        self.charges[-1].end = ms_to_datetime(at_ms)
        self.charges[-1].end_charge = charge

    def state_seconds(self, *, end_ms: int) -> dict[str, float]:
        totals = dict.fromkeys(STATES, 0)
        for (at, state), (following, _) in zip(
            self._changes, [*self._changes[1:], (end_ms, "")], strict=True
        ):
            totals[state] += max(0, min(following, end_ms) - min(at, end_ms))
        return {state: ms / 1000 for state, ms in totals.items()}

    @property
    def orders(self) -> list[OrderTruth]:
        return self._orders

    @property
    def open_order(self) -> OrderTruth | None:
        return self._open_order
