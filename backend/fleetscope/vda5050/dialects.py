"""The enumeration values each VDA 5050 version family allows, mapped to the model's enums.

1.1 writes enumerations in lower or camel case; 2.x in upper case; 3.0 adds levels, modes
and connection states and spells some differently (``TEACH_IN``, ``CONNECTION_BROKEN``).
"""

from dataclasses import dataclass
from typing import TypeVar

from fleetscope.vda5050.model import ActionStatus, ConnectionState, ErrorLevel, OperatingMode

Member = TypeVar("Member")


@dataclass(frozen=True, slots=True)
class Dialect:
    """The enumeration values one protocol version family allows."""

    action_status: dict[str, ActionStatus]
    error_level: dict[str, ErrorLevel]
    operating_mode: dict[str, OperatingMode]
    e_stop: dict[str, str]
    connection_state: dict[str, ConnectionState]


def _upper_case(*members: Member) -> dict[str, Member]:
    return {str(member): member for member in members}


def _any_case(mapping: dict[str, Member], **extra: Member) -> dict[str, Member]:
    """1.1 writes enumerations in lower or camel case ("waiting", "autoAck")."""
    tolerant = dict(mapping)
    tolerant.update({key.lower(): value for key, value in mapping.items()})
    tolerant.update(extra)
    return tolerant


_ACTION_STATUS_2 = _upper_case(
    ActionStatus.WAITING,
    ActionStatus.INITIALIZING,
    ActionStatus.RUNNING,
    ActionStatus.PAUSED,  # missing from the 2.1 schema file, listed in its text (6.11)
    ActionStatus.FINISHED,
    ActionStatus.FAILED,
)
_ERROR_LEVEL_2 = _upper_case(ErrorLevel.WARNING, ErrorLevel.FATAL)
_OPERATING_MODE_2 = _upper_case(
    OperatingMode.AUTOMATIC,
    OperatingMode.SEMIAUTOMATIC,
    OperatingMode.MANUAL,
    OperatingMode.SERVICE,
    OperatingMode.TEACHIN,
)
_E_STOP_2 = {value: value for value in ("AUTOACK", "MANUAL", "REMOTE", "NONE")}
_CONNECTION_2 = _upper_case(
    ConnectionState.ONLINE, ConnectionState.OFFLINE, ConnectionState.CONNECTIONBROKEN
)

DIALECT_1 = Dialect(
    action_status=_any_case(_ACTION_STATUS_2),
    error_level=_any_case(_ERROR_LEVEL_2),
    # The 1.1 text names the mode TEACHING in one table and TEACHIN in another.
    operating_mode=_any_case(_OPERATING_MODE_2, TEACHING=OperatingMode.TEACHIN),
    e_stop=_any_case(_E_STOP_2, autoAck="AUTOACK"),
    connection_state=_any_case(_CONNECTION_2, connectionBroken=ConnectionState.CONNECTIONBROKEN),
)
DIALECT_2 = Dialect(
    action_status=_ACTION_STATUS_2,
    error_level=_ERROR_LEVEL_2,
    operating_mode=_OPERATING_MODE_2,
    e_stop=_E_STOP_2,
    connection_state=_CONNECTION_2,
)
DIALECT_3 = Dialect(
    action_status={**_ACTION_STATUS_2, "RETRIABLE": ActionStatus.RETRIABLE},
    error_level=_upper_case(
        ErrorLevel.WARNING, ErrorLevel.URGENT, ErrorLevel.CRITICAL, ErrorLevel.FATAL
    ),
    operating_mode={
        **_OPERATING_MODE_2,
        "STARTUP": OperatingMode.STARTUP,
        "INTERVENED": OperatingMode.INTERVENED,
        "TEACH_IN": OperatingMode.TEACHIN,
    },
    e_stop={value: value for value in ("MANUAL", "REMOTE", "NONE")},
    connection_state={
        "ONLINE": ConnectionState.ONLINE,
        "OFFLINE": ConnectionState.OFFLINE,
        "HIBERNATING": ConnectionState.HIBERNATING,
        "CONNECTION_BROKEN": ConnectionState.CONNECTIONBROKEN,
    },
)
