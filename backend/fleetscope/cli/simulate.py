"""``fleetscope simulate``: run the fleet simulator into a file or an MQTT broker."""

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer

from fleetscope.simulator import default_scenario, simulate, write_truth
from fleetscope.simulator.sinks import MqttTarget, PublishOptions, publish_mqtt, write_ndjson

DEFAULT_FILE_START = "2026-11-01T00:00:00Z"


def _parse_start(value: str | None, *, live: bool) -> datetime:
    if value is None:
        if live:  # live runs start now so a subscriber sees current timestamps
            return datetime.now(UTC).replace(microsecond=0)
        value = DEFAULT_FILE_START
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError as error:
        raise typer.BadParameter(
            f"not an ISO 8601 time: {value!r}", param_hint="--start"
        ) from error
    if parsed.tzinfo is None:
        raise typer.BadParameter(
            "give a time zone, e.g. 2026-11-01T00:00:00Z", param_hint="--start"
        )
    return parsed


def _default_truth_path(out: Path | None) -> Path:
    if out is None:
        return Path("simulation.truth.json")
    name = out.name.removesuffix(".gz").removesuffix(".ndjson")
    return out.with_name(f"{name}.truth.json")


def simulate_command(
    seed: Annotated[int, typer.Option(help="Random seed; the same seed gives the same bytes.")] = 7,
    days: Annotated[float, typer.Option(help="Simulated days.", min=0.001)] = 1.0,
    vehicles: Annotated[int, typer.Option(help="Number of vehicles.", min=1, max=99)] = 10,
    out: Annotated[Path | None, typer.Option(help="NDJSON file (.gz compresses).")] = None,
    truth: Annotated[Path | None, typer.Option(help="Ground truth JSON path.")] = None,
    mqtt: Annotated[str | None, typer.Option(help="Broker URL, e.g. mqtt://127.0.0.1:1883")] = None,
    speed: Annotated[float, typer.Option(help="Simulated s per real s; 0 = no pacing.")] = 1.0,
    wall_clock: Annotated[
        bool, typer.Option(help="Publish at each message's timestamp (past ones at once).")
    ] = False,
    qos: Annotated[int, typer.Option(help="QoS of state messages.", min=0, max=2)] = 0,
    start: Annotated[str | None, typer.Option(help="Start (ISO 8601 with zone).")] = None,
    serial_prefix: Annotated[str, typer.Option(help="Serials are PREFIX-01, ...")] = "AGV",
    interface: Annotated[str, typer.Option(help="First topic level.")] = "uagv",
    manufacturer: Annotated[str, typer.Option(help="VDA 5050 manufacturer.")] = "Fleetscope Sim",
    time_zone: Annotated[
        str, typer.Option(help="Site time zone for the shifts.")
    ] = "Europe/Berlin",
) -> None:
    """Simulate a VDA 5050 fleet into a file or an MQTT broker; always write the truth."""
    if (out is None) == (mqtt is None):
        raise typer.BadParameter("give either --out FILE or --mqtt URL", param_hint="--out")
    target = MqttTarget.from_url(mqtt) if mqtt else None
    scenario = default_scenario(
        vehicles=vehicles,
        serial_prefix=serial_prefix,
        manufacturer=manufacturer,
        interface=interface,
        time_zone=time_zone,
    )
    run = simulate(
        scenario,
        seed=seed,
        start=_parse_start(start, live=target is not None),
        duration=timedelta(days=days),
    )
    began = time.perf_counter()
    messages = run.timed_messages()
    try:
        if out is not None:
            count = write_ndjson(messages, out)
        else:
            assert target is not None
            options = PublishOptions(speed=speed, state_qos=qos, wall_clock=wall_clock)
            count = publish_mqtt(messages, target=target, options=options)
    except KeyboardInterrupt:
        typer.echo("interrupted: no truth written (the run did not reach its end)", err=True)
        raise typer.Exit(130) from None
    elapsed = time.perf_counter() - began
    truth_path = truth or _default_truth_path(out)
    write_truth(run.truth(), truth_path)
    vehicle_days = vehicles * days
    typer.echo(
        f"{count} messages in {elapsed:.1f} s ({count / max(elapsed, 1e-9):,.0f}/s, "
        f"{count / vehicle_days:,.0f} per vehicle-day); truth: {truth_path}"
    )
