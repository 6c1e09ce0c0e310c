"""MQTT topics of VDA 5050: ``{interface}/{major}/{manufacturer}/{serial}/{subtopic}``."""

from dataclasses import dataclass
from functools import lru_cache

from fleetscope.i18n.refusals import TOPIC_MAJOR, TOPIC_SHAPE, TOPIC_SUBTOPIC
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
        raise DecodeError(TOPIC_SHAPE(topic=topic))
    interface, major_version, manufacturer, serial_number, subtopic = parts
    kind = _KINDS.get(subtopic)
    if kind is None:
        raise DecodeError(TOPIC_SUBTOPIC(topic=topic, subtopic=subtopic))
    digits = major_version[1:]
    if major_version[:1] != "v" or not digits.isdigit():
        raise DecodeError(TOPIC_MAJOR(topic=topic, major=major_version))
    return Topic(interface, major_version, int(digits), manufacturer, serial_number, kind)
