"""A field a change leaves as it is: ``UNCHANGED``, where ``None`` is a value of its own (no
MQTT interface, no organization, no language chosen)."""

from enum import Enum


class Unchanged(Enum):
    UNCHANGED = "unchanged"


UNCHANGED = Unchanged.UNCHANGED
