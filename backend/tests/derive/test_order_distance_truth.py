"""Order distances: every derived order run drove what the simulator says, replaced or not.

A replacing order starts where the vehicle stands (VDA 5050), so the leg driven before the
first state of the new order belongs to the order it replaced, in the derivation as in
the simulator's truth.
"""

from datetime import UTC, datetime, timedelta

from fleetscope.derive import DerivationConfig, VehicleDeriver
from fleetscope.facts.model import OrderRun
from fleetscope.simulator import default_scenario, simulate
from fleetscope.vda5050.decode import decode


def test_each_order_run_has_the_simulated_distance() -> None:
    simulation = simulate(
        default_scenario(vehicles=4, serial_prefix="HAM", interface="uagv"),
        seed=7,
        start=datetime(2026, 11, 2, tzinfo=UTC),
        duration=timedelta(days=1),
    )
    derivers: dict[str, VehicleDeriver] = {}
    runs: dict[tuple[str, str], OrderRun] = {}
    for topic, payload in simulation.messages():
        serial = topic.split("/")[3]
        deriver = derivers.get(serial)
        if deriver is None:
            deriver = derivers[serial] = VehicleDeriver(
                vehicle_id=len(derivers) + 1, config=DerivationConfig()
            )
        for fact in deriver.feed(decode(topic, payload)):
            if isinstance(fact, OrderRun):
                runs[(serial, fact.order_id)] = fact
    truth = simulation.truth()
    replaced = [order for order in truth.orders if order.outcome == "cancelled"]
    assert replaced and len(runs) == len(truth.orders)
    for order in truth.orders:
        run = runs[(order.serial_number, order.order_id)]
        assert abs(run.distance_m - order.distance_m) <= 0.01 * max(order.distance_m, 1.0), (
            order.order_id
        )
