"""Conversion of facts and live statuses to rows of their fact-store tables (column order)."""

import json
from typing import Any

from fleetscope.facts.model import (
    ActionRecord,
    BatterySample,
    ChargeSession,
    ErrorEpisode,
    Fact,
    LiveStatus,
    OrderRun,
    StateInterval,
    TrackPoint,
)

Row = tuple[Any, ...]

FACT_TABLES: dict[type, str] = {
    StateInterval: "state_intervals",
    OrderRun: "orders",
    ActionRecord: "actions",
    ErrorEpisode: "error_episodes",
    BatterySample: "battery_samples",
    ChargeSession: "charge_sessions",
    TrackPoint: "track_points",
}


def fact_row(fact: Fact) -> Row:
    if isinstance(fact, TrackPoint):
        return (fact.vehicle_id, fact.at, fact.x, fact.y, fact.map_id, fact.distance_m)
    if isinstance(fact, StateInterval):
        return (fact.vehicle_id, fact.state.value, fact.start, fact.end)
    if isinstance(fact, BatterySample):
        return (
            fact.vehicle_id,
            fact.at,
            fact.charge,
            fact.charging,
            fact.voltage,
            fact.health,
            fact.held_s,
            fact.held_charge_s,
            fact.discharged,
            fact.closes,
            fact.held_low,
        )
    if isinstance(fact, OrderRun):
        return (
            fact.vehicle_id,
            fact.order_id,
            fact.workflow,
            fact.start,
            fact.end,
            fact.outcome.value,
            fact.distance_m,
            fact.nodes_traversed,
            fact.nodes_total,
            fact.paused_s,
            fact.waiting_s,
            fact.error_count,
        )
    if isinstance(fact, ActionRecord):
        return (
            fact.vehicle_id,
            fact.action_id,
            fact.action_type,
            fact.order_id,
            fact.first_seen,
            fact.started,
            fact.end,
            fact.status,
            fact.load_handling,
        )
    if isinstance(fact, ErrorEpisode):
        return (
            fact.vehicle_id,
            fact.error_type,
            str(fact.level),
            fact.description,
            fact.references,
            fact.start,
            fact.end,
            fact.x,
            fact.y,
            fact.map_id,
            fact.order_id,
        )
    return (
        fact.vehicle_id,
        fact.start,
        fact.end,
        fact.start_charge,
        fact.end_charge,
        fact.peak_before,
    )


def live_row(status: LiveStatus) -> Row:
    return (
        status.vehicle_id,
        status.state.value,
        status.since,
        status.last_message_at,
        status.order_id,
        status.workflow,
        status.charge,
        status.charging,
        json.dumps([list(error) for error in status.active_errors]),
        status.x,
        status.y,
        status.map_id,
        status.held_until,
        status.held_s,
        status.held_charge_s,
        status.held_low,
        status.held_discharged,
    )
