"""Live output: messages reach a real Mosquitto in order, paced by the speed factor."""

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from fleetscope.ingest.broker import PrivateMosquitto
from fleetscope.simulator import simulate
from fleetscope.simulator.sinks import MqttTarget, PublishOptions, publish_mqtt

from .conftest import START, stress_scenario

pytestmark = pytest.mark.mqtt


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[PrivateMosquitto]:
    with PrivateMosquitto(workdir=tmp_path / "mosquitto") as running:
        yield running


class _Collector:
    def __init__(self, broker: PrivateMosquitto) -> None:
        self.received: list[tuple[str, bytes, bool]] = []
        self.subscribed = threading.Event()
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="sim-test-collector")
        self._client.on_connect = lambda c, *_: c.subscribe("uagv/#", qos=1)
        self._client.on_subscribe = lambda *_: self.subscribed.set()
        self._client.on_message = lambda _c, _u, m: self.received.append(
            (m.topic, bytes(m.payload), m.retain)
        )
        self._client.connect("127.0.0.1", broker.port)
        self._client.loop_start()
        assert self.subscribed.wait(5)

    def wait_for(self, count: int, *, timeout_s: float = 20.0) -> None:
        deadline = time.monotonic() + timeout_s
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.02)

    def stop(self) -> None:
        self._client.loop_stop()
        self._client.disconnect()


def test_publishes_every_message_in_order(broker: PrivateMosquitto) -> None:
    collector = _Collector(broker)
    simulation = simulate(
        stress_scenario(vehicles=2), seed=4, start=START, duration=timedelta(hours=2)
    )
    expected = list(simulation.timed_messages())
    count = publish_mqtt(
        iter(expected),
        target=MqttTarget.from_url(broker.url),
        options=PublishOptions(speed=0, state_qos=1),
    )
    collector.wait_for(count)
    collector.stop()
    assert count == len(expected)
    assert [(topic, payload) for topic, payload, _ in collector.received] == [
        (topic, payload) for _at, topic, payload in expected
    ]


def test_paces_by_simulated_time(broker: PrivateMosquitto) -> None:
    simulation = simulate(
        stress_scenario(vehicles=1), seed=4, start=START, duration=timedelta(minutes=10)
    )
    messages = list(simulation.timed_messages())
    now = [0.0]
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    publish_mqtt(
        iter(messages),
        target=MqttTarget.from_url(broker.url),
        options=PublishOptions(speed=60.0),
        clock=lambda: now[0],
        sleep=sleep,
    )
    simulated_s = (messages[-1][0] - messages[0][0]) / 1000
    assert sum(slept) == pytest.approx(simulated_s / 60.0, rel=1e-6)


def test_rejects_a_url_that_is_not_mqtt() -> None:
    with pytest.raises(ValueError, match="mqtt://host:1883"):
        MqttTarget.from_url("http://127.0.0.1:1883")


def test_wall_clock_publishes_the_past_at_once_and_waits_for_the_future(
    broker: PrivateMosquitto,
) -> None:
    simulation = simulate(
        stress_scenario(vehicles=1), seed=4, start=START, duration=timedelta(minutes=10)
    )
    messages = list(simulation.timed_messages())
    now = [START.timestamp() + 300.0]  # half of the run is in the past
    slept: list[float] = []

    def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    publish_mqtt(
        iter(messages),
        target=MqttTarget.from_url(broker.url),
        options=PublishOptions(wall_clock=True),
        clock=lambda: now[0],
        sleep=sleep,
    )
    assert sum(slept) == pytest.approx(messages[-1][0] / 1000 - START.timestamp() - 300.0)
