"""MQTT topics of VDA 5050: ``{interface}/{major}/{manufacturer}/{serial}/{subtopic}``."""

import re
from dataclasses import dataclass
from functools import lru_cache

from fleetscope.i18n.refusals import TOPIC_CHARACTER, TOPIC_MAJOR, TOPIC_SHAPE, TOPIC_SUBTOPIC
from fleetscope.vda5050.limits import CONTROL_CHARACTER
from fleetscope.vda5050.model import DecodeError, MessageKind

_KINDS = {kind.value: kind for kind in MessageKind}
# MQTT forbids U+0000 and the wildcards in a published topic name and advises against control
# characters (3.1.1 and 5.0, section 4.7.3): no broker delivers them, and the app store, which
# keeps the interface, manufacturer and serial number, cannot hold U+0000 (PostgreSQL).
_NOT_IN_TOPIC_NAMES = re.compile(f"{CONTROL_CHARACTER.pattern}|[+#]")


@dataclass(frozen=True, slots=True)
class Topic:
    interface: str
    major_version: str  # "v2"
    major: int  # 2
    manufacturer: str
    serial_number: str
    kind: MessageKind


@lru_cache(maxsize=8192)  # a fleet has few topics; parsing each message again costs ~3 µs
def parse_topic(topic: str) -> Topic:
    parts = topic.split("/")
    if len(parts) != 5 or not all(parts):
        raise DecodeError(TOPIC_SHAPE(topic=topic))
    if (forbidden := _NOT_IN_TOPIC_NAMES.search(topic)) is not None:
        character = f"{forbidden.group()!r} (U+{ord(forbidden.group()):04X})"
        raise DecodeError(TOPIC_CHARACTER(topic=topic, character=character))
    interface, major_version, manufacturer, serial_number, subtopic = parts
    kind = _KINDS.get(subtopic)
    if kind is None:
        raise DecodeError(TOPIC_SUBTOPIC(topic=topic, subtopic=subtopic))
    digits = major_version[1:]
    # ASCII digits only: "²".isdigit() is true, int("²") is not.
    if major_version[:1] != "v" or not (digits.isascii() and digits.isdigit()):
        raise DecodeError(TOPIC_MAJOR(topic=topic, major=major_version))
    return Topic(interface, major_version, int(digits), manufacturer, serial_number, kind)
