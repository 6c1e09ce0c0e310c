"""Order volume follows the shifts and weekdays; error types follow Zipf with hotspots."""

import random
from collections import Counter
from datetime import timedelta
from zoneinfo import ZoneInfo

from fleetscope.simulator import default_scenario, simulate
from fleetscope.simulator.randomness import ErrorSampler, ShiftCalendar
from fleetscope.simulator.scenario import ShiftVolume

from .conftest import START

_BERLIN = ZoneInfo("Europe/Berlin")


def _shift(hour: int) -> str:
    return "early" if 6 <= hour < 14 else "late" if 14 <= hour < 22 else "night"


def test_orders_per_hour_follow_shift_and_weekday() -> None:
    scenario = default_scenario(vehicles=2)
    simulation = simulate(scenario, seed=3, start=START, duration=timedelta(days=7))
    for _message in simulation.messages():
        pass
    per_shift: Counter[str] = Counter()
    per_day: Counter[str] = Counter()
    for order in simulation.truth().orders:
        if order.workflow == scenario.charge_workflow:
            continue
        local = order.start.astimezone(_BERLIN)
        per_day[
            "sunday" if local.weekday() == 6 else "weekday" if local.weekday() < 5 else "sat"
        ] += 1
        if local.weekday() < 5:
            per_shift[_shift(local.hour)] += 1
    # Every shift is 8 hours long, so counts compare as rates.
    assert per_shift["early"] > per_shift["late"] > 1.5 * per_shift["night"] > 0
    assert per_day["sunday"] < 0.5 * per_day["weekday"] / 5


def test_shift_calendar_uses_site_local_time() -> None:
    calendar = ShiftCalendar(volume=ShiftVolume(), time_zone="Europe/Berlin")
    monday_0530_utc = int(START.timestamp() * 1000) + 5 * 3_600_000 + 1_800_000  # 06:30 CET
    monday_0430_utc = monday_0530_utc - 3_600_000  # 05:30 CET, still night
    assert calendar.intensity(monday_0530_utc) == ShiftVolume().early
    assert calendar.intensity(monday_0430_utc) == ShiftVolume().night


def test_shift_calendar_follows_a_half_or_quarter_hour_offset() -> None:
    """Kolkata is UTC+05:30, Kathmandu +05:45: their shifts begin within a UTC hour."""
    volume = ShiftVolume()
    monday = int(START.timestamp() * 1000)  # Monday 2 November 2026 00:00 UTC
    minute = 60_000
    kolkata = ShiftCalendar(volume=volume, time_zone="Asia/Kolkata")
    # 00:25 UTC is 05:55 there (night), 00:40 UTC 06:10 (early); 16:25 UTC 21:55 (late),
    # 16:35 UTC 22:05 (night).
    assert kolkata.intensity(monday + 25 * minute) == volume.night
    assert kolkata.intensity(monday + 40 * minute) == volume.early
    assert kolkata.intensity(monday + (16 * 60 + 25) * minute) == volume.late
    assert kolkata.intensity(monday + (16 * 60 + 35) * minute) == volume.night
    kathmandu = ShiftCalendar(volume=volume, time_zone="Asia/Kathmandu")
    # 00:14 UTC is 05:59 there, 00:15 UTC 06:00.
    assert kathmandu.intensity(monday + 14 * minute) == volume.night
    assert kathmandu.intensity(monday + 15 * minute) == volume.early


def test_error_types_are_zipf_distributed_away_from_hotspots() -> None:
    scenario = default_scenario()
    sampler = ErrorSampler(error_types=scenario.error_types, exponent=1.1, hotspot_factor=6.0)
    rng = random.Random(1)
    draws = 40_000
    counts = Counter(sampler.choose(rng, "X14").error_type for _ in range(draws))
    for error_type, share in zip(scenario.error_types, sampler.zipf_shares(), strict=True):
        observed = counts[error_type.error_type] / draws
        assert abs(observed - share) < 0.15 * share + 0.003, (error_type.error_type, observed)
    ranked = [error_type.error_type for error_type in scenario.error_types]
    assert counts[ranked[0]] > 2 * counts[ranked[2]] > 0


def test_hotspots_make_their_error_types_likelier() -> None:
    scenario = default_scenario()
    sampler = ErrorSampler(error_types=scenario.error_types, exponent=1.1, hotspot_factor=6.0)
    assert sampler.chance_at("RACK-3", base=0.01) == 0.06
    assert sampler.chance_at("X14", base=0.01) == 0.01
    rng = random.Random(2)
    at_rack = Counter(sampler.choose(rng, "RACK-3").error_type for _ in range(5000))
    elsewhere = Counter(sampler.choose(rng, "X14").error_type for _ in range(5000))
    assert at_rack["loadSensorMismatch"] > 3 * elsewhere["loadSensorMismatch"]
