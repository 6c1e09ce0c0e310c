"""The ranges a decoded message must lie in: what the protocol allows and the store can hold.

VDA 5050 leaves string lengths and value ranges to the integrator (2.1, section 6.1), so a
vehicle may send anything its JSON types allow; one value the fact store cannot hold (a
headerId of 2^63, a year 9999 timestamp) used to fail the write of a whole batch. Every
bound below is checked while decoding, so such a message becomes a dead letter naming the
field and the problem:

- integers the protocol types uint32 (headerId, orderUpdateId, sequenceIds): 0 to 2^32-1
  (the text of 1.1 to 3.0; the JSON schemas say only "integer");
- state of charge and state of health: percent, 0 to 100;
- positions: finite and within ``COORDINATE_MAX_M`` metres of the map origin, so the
  distances summed from them stay finite; reach and speeds: finite, reach not negative;
- strings: ``SERIAL_MAX`` characters for serial numbers and manufacturers (the factsheet's
  ``topicSerialLen``/``topicElemLen``), ``ID_MAX`` for ids (``idLen``: order, node, edge,
  action and map ids), ``KEY_MAX`` for types and keys (``enumLen``: errorType, actionType,
  referenceKey), ``ENUM_MAX`` for enumerations, ``TEXT_MAX`` for descriptions and error
  texts, ``TOPIC_MAX`` for the whole MQTT topic; the strings the app store keeps (a
  vehicle's protocol version and its factsheet's series name as its model) fit its columns,
  ``VERSION_MAX`` and ``NAME_MAX``, and hold no control character (``decode``,
  ``normalize``), nor does the topic (``topic``);
- the header timestamp: not before ``DecodeLimits.earliest`` (setting, default
  2000-01-01) and not later than the receive time plus ``DecodeLimits.allowed_skew``
  (setting, default 300 s).
- the payload: at most ``DecodeLimits.max_payload_bytes`` (setting, default 1 MiB), checked
  before it is parsed; a state of a long order with its trajectories is a few hundred KiB,
  and a larger one would hold the one ingest thread and fill tiles and tables with
  thousands of entries.

msgspec checks the fixed bounds in C while parsing (``Annotated`` types below, used by
``wire``); the time bounds depend on configuration and on the receive time, so ``decode``
takes them as an argument and stays pure.
"""

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated

from msgspec import Meta

UINT32_MAX = 2**32 - 1
# Unicode's control characters (C0, DEL, C1): PostgreSQL cannot store U+0000, and none has a
# place in a name, a version or a topic.
CONTROL_CHARACTER = re.compile(r"[\x00-\x1f\x7f-\x9f]")
COORDINATE_MAX_M = 1e9
SERIAL_MAX = 128
ID_MAX = 256
KEY_MAX = 256
ENUM_MAX = 64
VERSION_MAX = 20  # also the length of the app store's vehicles.protocol_version
NAME_MAX = 200  # also the length of the app store's vehicles.model
TEXT_MAX = 4096
TOPIC_MAX = 512

# Instants before 1970 are refused whatever the configuration: the fact store's time columns
# travel as epoch seconds (facts/columns.py) and the charts as epoch milliseconds.
HARD_EARLIEST = datetime(1970, 1, 1, tzinfo=UTC)
DEFAULT_EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
DEFAULT_ALLOWED_SKEW = timedelta(seconds=300)
DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024

Uint32 = Annotated[int, Meta(ge=0, le=UINT32_MAX)]
Percent = Annotated[float, Meta(ge=0, le=100)]
Coordinate = Annotated[float, Meta(ge=-COORDINATE_MAX_M, le=COORDINATE_MAX_M)]
NonNegative = Annotated[float, Meta(ge=0)]
Serial = Annotated[str, Meta(max_length=SERIAL_MAX)]
Id = Annotated[str, Meta(max_length=ID_MAX)]
Key = Annotated[str, Meta(max_length=KEY_MAX)]
Enum = Annotated[str, Meta(max_length=ENUM_MAX)]
Version = Annotated[str, Meta(max_length=VERSION_MAX)]
Name = Annotated[str, Meta(max_length=NAME_MAX)]
Text = Annotated[str, Meta(max_length=TEXT_MAX)]


@dataclass(frozen=True, slots=True)
class DecodeLimits:
    """The configurable bounds of the header timestamp (settings ``earliest_timestamp`` and
    ``timestamp_skew_seconds``) and of the payload's size (``max_message_bytes``)."""

    earliest: datetime = DEFAULT_EARLIEST
    # None: no bound after the receive time (rebuild only, see ``for_replay``).
    allowed_skew: timedelta | None = DEFAULT_ALLOWED_SKEW
    # None: any size (rebuild only, see ``for_replay``).
    max_payload_bytes: int | None = DEFAULT_MAX_PAYLOAD_BYTES

    def __post_init__(self) -> None:
        if self.earliest.tzinfo is None or self.earliest < HARD_EARLIEST:
            raise ValueError("the earliest timestamp must be timezone-aware and from 1970 on")
        if self.allowed_skew is not None and self.allowed_skew < timedelta(0):
            raise ValueError("the allowed clock skew must not be negative")
        if self.max_payload_bytes is not None and self.max_payload_bytes <= 0:
            raise ValueError("the payload limit must be positive")

    def for_replay(self) -> "DecodeLimits":
        """Rebuild replays frames accepted under the limits of their day: only what the
        store cannot hold is refused, not what today's configuration would."""
        return DecodeLimits(earliest=HARD_EARLIEST, allowed_skew=None, max_payload_bytes=None)


DEFAULT_LIMITS = DecodeLimits()
