"""MQTT topics of VDA 5050: ``{interface}/{major}/{manufacturer}/{serial}/{subtopic}``."""

from dataclasses import dataclass
from functools import lru_cache

from fleetscope.vda5050.model import DecodeError, MessageKind

_KINDS = {kind.value: kind for kind in MessageKind}


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
        raise DecodeError(
            f"topic {topic!r} is not {{interface}}/{{major}}/{{manufacturer}}/{{serial}}"
            "/{state|connection|factsheet}"
        )
    interface, major_version, manufacturer, serial_number, subtopic = parts
    kind = _KINDS.get(subtopic)
    if kind is None:
        raise DecodeError(
            f"topic {topic!r} ends in {subtopic!r}, not in state, connection or factsheet"
        )
    digits = major_version[1:]
    if major_version[:1] != "v" or not digits.isdigit():
        raise DecodeError(
            f"topic {topic!r} has major version {major_version!r}, expected v1, v2 or v3"
        )
    return Topic(interface, major_version, int(digits), manufacturer, serial_number, kind)
