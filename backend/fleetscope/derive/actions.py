"""Actions per actionId: first seen, first RUNNING, end (FINISHED/FAILED), type and order.

VDA 5050 keeps an action in ``actionStates`` until the next order, so an id is tracked while
it is listed and forgotten when it disappears; an id listed again after its action ended
(with another status), or under another order, is a new action (ids may be reused). Which
order an action belongs to is not in the message: an action listed while an order run is
active belongs to that order, unless it is an instant action (3.0 ``instantActionStates``,
or a type that exists only as an instant action). An action that disappears without
FINISHED/FAILED was abandoned with its order (another order replaced it): it is dropped,
since it neither finished nor failed (VDA 5050 reports the actions of a cancelled order as
FAILED, and those are recorded).
"""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from msgspec import Struct

from fleetscope.derive.timecodec import dump_time, load_time, load_time_required
from fleetscope.facts.model import ActionRecord
from fleetscope.vda5050.model import ActionState, ActionStatus

CANCEL_ORDER = "cancelOrder"
# Predefined action types that VDA 5050 (1.1-3.0) allows only as instant actions.
INSTANT_ONLY_TYPES = frozenset(
    {
        CANCEL_ORDER,
        "startPause",
        "stopPause",
        "stateRequest",
        "factsheetRequest",
        "logReport",
        "clearInstantActions",
        "startHibernation",
        "stopHibernation",
        "shutdown",
        "retry",
        "skipRetry",
    }
)
_RUNNING = ActionStatus.RUNNING
_WAITING = ActionStatus.WAITING
_FINISHED = ActionStatus.FINISHED
_FAILED = ActionStatus.FAILED
_TERMINAL = frozenset({_FINISHED, _FAILED})
# Load handling actions (product.md section 3, "loads handled"): VDA 5050's predefined
# load-handling action types, compared in lower case (a vehicle may write "Pick").
LOAD_HANDLING_TYPES = frozenset({"pick", "drop", "load", "unload"})


@dataclass(slots=True)
class _Action:
    action_type: str
    order_id: str
    first_seen: datetime
    started: datetime | None
    ended: bool
    status: ActionStatus


class ActionSummary(Struct, gc=False):
    """What the order and state logic need from one message's actions.

    One per state message: a msgspec Struct costs a fraction of a dataclass to create."""

    order_failed_action: bool = False  # an action of the active order ended FAILED
    order_waiting: bool = False  # an action of the active order is WAITING
    cancel_finished: bool = False  # a cancelOrder action finished in this message
    cancel_pending: bool = False  # a cancelOrder action is still running


def _reused(tracked: _Action, status: ActionStatus, order_id: str) -> bool:
    """Whether a listed id is another action than the one tracked under it: VDA 5050 wants
    ids unique, but a vehicle may reuse one in a later order. An ended action listed with
    another status, or an order's action listed while another order runs, is a new one."""
    if tracked.ended:
        return status is not tracked.status
    return bool(order_id and tracked.order_id and tracked.order_id != order_id)


class ActionTracker:
    __slots__ = ("live", "load_types", "repeat", "vehicle_id")

    def __init__(
        self, *, vehicle_id: int, load_types: frozenset[str] = LOAD_HANDLING_TYPES
    ) -> None:
        self.vehicle_id = vehicle_id
        self.load_types = load_types  # lower case
        self.live: dict[str, _Action] = {}
        # The previous call's input and result: most messages repeat the action list, and
        # then nothing can change. Only a shortcut, so snapshots leave it out.
        self.repeat: tuple[Any, ...] | None = None

    def update(
        self,
        *,
        at: datetime,
        actions: tuple[ActionState, ...],
        instant_actions: tuple[ActionState, ...],
        order_id: str,
        baseline: bool,
        facts: list[Any],
    ) -> ActionSummary:
        """Applies one message. ``order_id`` is the active run's id ("" if none);
        ``baseline`` marks the first message ever, whose finished actions are history."""
        live = self.live
        if not live and not actions and not instant_actions:
            return ActionSummary()
        repeat = self.repeat
        if (
            repeat is not None
            and not baseline
            and repeat[0] == actions
            and repeat[1] == instant_actions
            and repeat[2] == order_id
        ):
            return ActionSummary(order_waiting=repeat[3], cancel_pending=repeat[4])
        summary = ActionSummary()
        listed = 0
        for instant, states in ((False, actions), (True, instant_actions)):
            for action in states:
                listed += 1
                status = action.status
                tracked = live.get(action.action_id)
                if tracked is not None and _reused(tracked, status, order_id):
                    tracked = None  # the old one ended or was abandoned with its order
                if tracked is None:
                    is_instant = instant or action.action_type in INSTANT_ONLY_TYPES
                    tracked = live[action.action_id] = _Action(
                        action.action_type,
                        "" if is_instant else order_id,
                        at,
                        at if status is _RUNNING else None,
                        baseline and status in _TERMINAL,
                        status,
                    )
                elif tracked.status is not status:
                    tracked.status = status
                    if status is _RUNNING and tracked.started is None:
                        tracked.started = at
                if tracked.ended:
                    if baseline and status is _FAILED and order_id and tracked.order_id == order_id:
                        # Failed before the first message, in the order it still runs.
                        summary.order_failed_action = True
                    continue
                is_cancel = tracked.action_type == CANCEL_ORDER
                if status in _TERMINAL:
                    tracked.ended = True
                    facts.append(self._record(action.action_id, tracked, at, status))
                    if status is _FAILED and order_id and tracked.order_id == order_id:
                        summary.order_failed_action = True
                    elif is_cancel and status is _FINISHED:
                        summary.cancel_finished = True
                elif is_cancel:
                    summary.cancel_pending = True
                elif status is _WAITING and order_id and tracked.order_id == order_id:
                    summary.order_waiting = True
        # Every listed id is tracked now, so equal counts mean nothing disappeared
        # (VDA 5050 requires unique actionIds within a message).
        if listed != len(live):
            present = {action.action_id for action in actions}
            present.update(action.action_id for action in instant_actions)
            for action_id in [action_id for action_id in live if action_id not in present]:
                del live[action_id]
        self.repeat = (
            actions,
            instant_actions,
            order_id,
            summary.order_waiting,
            summary.cancel_pending,
        )
        return summary

    def _record(
        self, action_id: str, action: _Action, end: datetime, status: ActionStatus
    ) -> ActionRecord:
        return ActionRecord(
            self.vehicle_id,
            action_id,
            action.action_type,
            action.order_id,
            action.first_seen,
            action.started,
            end,
            str(status),
            action.action_type.lower() in self.load_types,
        )

    def dump(self) -> list[list[Any]]:
        return [
            [
                action_id,
                action.action_type,
                action.order_id,
                dump_time(action.first_seen),
                dump_time(action.started),
                action.ended,
                action.status.value,
            ]
            for action_id, action in self.live.items()
        ]

    def load(self, data: list[list[Any]]) -> None:
        self.live = {
            action_id: _Action(
                action_type,
                order_id,
                load_time_required(first_seen),
                load_time(started),
                ended,
                ActionStatus(status),
            )
            for action_id, action_type, order_id, first_seen, started, ended, status in data
        }
