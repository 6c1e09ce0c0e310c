"""Counters of what a deriver did with the messages it was fed."""

from dataclasses import dataclass


@dataclass(slots=True)
class DeriverStats:
    applied: int = 0
    duplicates: int = 0  # same topic, headerId and timestamp as an applied message
    out_of_order: int = 0  # older than the last applied message
    ignored: int = 0  # factsheets
