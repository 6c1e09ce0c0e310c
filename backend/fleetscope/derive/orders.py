"""Order runs: from the first message with a new orderId to its outcome.

Outcome rules (product.md section 2):
- cancelled: a cancelOrder action finishes, or another orderId replaces it before idle;
- failed: it becomes idle with a FAILED action of the order or untraversed nodes, or a
  FATAL (3.0: CRITICAL/FATAL) error ends it, read as: the order is dropped to idle while
  such an error is active, or abandoned after one (product.md section 3: replaced by another
  orderId after such an error occurred during the run, even if it was cleared since);
- finished: it becomes idle with every node traversed and no FAILED action.
"Idle" is VDA 5050 6.6.8 and not driving (see ``states.is_vda_idle``); an orderId that
becomes empty (a restarted vehicle lost its order) is judged like idle.

Nodes: every released (sequenceId, nodeId) listed in ``nodeStates`` during the run counts
towards the total; a horizon node (not released) counts once released or passed, as an
order update may change or drop it. The node the vehicle reports as last node (same id and
sequence id) marks every node up to that sequence id as traversed, so a lost message does
not lose traversals.
Paused and waiting time integrate the previous message's flags up to each message and stop
while the vehicle is offline. ``waiting_s`` is the time during which at least one of the
order's actions was WAITING.
"""

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from fleetscope.derive.timecodec import dump_time, load_time_required
from fleetscope.facts.model import OrderOutcome, OrderRun
from fleetscope.vda5050.model import NodeState


@dataclass(slots=True)
class OrderRunState:
    order_id: str
    workflow: str
    start: datetime
    nodes: dict[int, str] = field(default_factory=dict)  # sequenceId -> nodeId
    horizon: dict[int, str] = field(default_factory=dict)  # the not yet released ones
    reached: int = -1  # highest sequenceId reached as last node
    distance_m: float = 0.0
    paused_s: float = 0.0
    waiting_s: float = 0.0
    error_count: int = 0
    failed_action: bool = False
    stopped: bool = False  # a stopping error (FATAL; 3.0 also CRITICAL) was active in the run
    accounted_to: datetime | None = None  # paused/waiting counted up to here
    paused: bool = False
    waiting: bool = False

    def see_nodes(
        self, nodes: tuple[NodeState, ...], last_node_id: str, last_sequence: int
    ) -> None:
        known, horizon = self.nodes, self.horizon
        for node in nodes:
            if node.released:
                known[node.sequence_id] = node.node_id
                horizon.pop(node.sequence_id, None)
            elif node.sequence_id not in known:
                horizon[node.sequence_id] = node.node_id
        if last_sequence <= self.reached:
            return
        if known.get(last_sequence) == last_node_id or horizon.get(last_sequence) == last_node_id:
            self.reached = last_sequence
            # Horizon nodes the vehicle got past were released (a message may have been lost).
            for sequence in [s for s in horizon if s <= last_sequence]:
                known[sequence] = horizon.pop(sequence)

    def account(self, at: datetime) -> None:
        """Adds the time since the last accounting under the previous message's flags."""
        since = self.accounted_to
        if since is not None and at > since and (self.paused or self.waiting):
            seconds = (at - since).total_seconds()
            if self.paused:
                self.paused_s += seconds
            if self.waiting:
                self.waiting_s += seconds
        self.accounted_to = at

    def suspend(self, at: datetime) -> None:
        """Offline: count up to ``at``, then nothing until the next message."""
        self.account(at)
        self.paused = False
        self.waiting = False

    def traversed(self) -> int:
        reached = self.reached
        return sum(1 for sequence in self.nodes if sequence <= reached)

    def outcome_when_idle(self, *, stopping_error: bool) -> OrderOutcome:
        if self.failed_action or stopping_error or self.traversed() < len(self.nodes):
            return OrderOutcome.FAILED
        return OrderOutcome.FINISHED

    def outcome_when_replaced(self, *, stopping_error: bool) -> OrderOutcome:
        """Another orderId took its place before idle: abandoned after a stopping error
        (one active now or earlier in the run) is failed, otherwise cancelled."""
        if self.stopped or stopping_error:
            return OrderOutcome.FAILED
        return OrderOutcome.CANCELLED

    def fact(self, *, vehicle_id: int, end: datetime, outcome: OrderOutcome) -> OrderRun:
        return OrderRun(
            vehicle_id,
            self.order_id,
            self.workflow,
            self.start,
            end,
            outcome,
            self.distance_m,
            self.traversed(),
            len(self.nodes),
            self.paused_s,
            self.waiting_s,
            self.error_count,
        )

    def dump(self) -> dict[str, Any]:
        return {
            "order_id": self.order_id,
            "workflow": self.workflow,
            "start": dump_time(self.start),
            "nodes": [[sequence, node_id] for sequence, node_id in self.nodes.items()],
            "horizon": [[sequence, node_id] for sequence, node_id in self.horizon.items()],
            "reached": self.reached,
            "distance_m": self.distance_m,
            "paused_s": self.paused_s,
            "waiting_s": self.waiting_s,
            "error_count": self.error_count,
            "failed_action": self.failed_action,
            "stopped": self.stopped,
            "accounted_to": dump_time(self.accounted_to),
            "paused": self.paused,
            "waiting": self.waiting,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> "OrderRunState":
        accounted_to = data["accounted_to"]
        return cls(
            order_id=data["order_id"],
            workflow=data["workflow"],
            start=load_time_required(data["start"]),
            nodes={sequence: node_id for sequence, node_id in data["nodes"]},
            horizon={sequence: node_id for sequence, node_id in data.get("horizon", [])},
            reached=data["reached"],
            distance_m=data["distance_m"],
            paused_s=data["paused_s"],
            waiting_s=data["waiting_s"],
            error_count=data["error_count"],
            failed_action=data["failed_action"],
            # Snapshots written before the flag existed: no stopping error recorded.
            stopped=data.get("stopped", False),
            accounted_to=None if accounted_to is None else load_time_required(accounted_to),
            paused=data["paused"],
            waiting=data["waiting"],
        )
