"""Configurable identities: two sites' fleets on their own interfaces, merged in time order."""

from datetime import timedelta

from fleetscope.simulator import default_scenario, merged_messages, simulate

from .conftest import START


def test_two_fleets_merge_in_timestamp_order() -> None:
    hamburg = default_scenario(vehicles=3, serial_prefix="HAM", interface="uagv")
    munich = default_scenario(vehicles=2, serial_prefix="MUC", interface="uagv-muc")
    runs = [
        simulate(scenario, seed=7, start=START, duration=timedelta(hours=2))
        for scenario in (hamburg, munich)
    ]
    messages = list(merged_messages(runs))
    assert [at for at, _topic, _payload in messages] == sorted(at for at, _, _ in messages)
    vehicles = {tuple(topic.split("/")[0:4:3]) for _at, topic, _payload in messages}
    assert vehicles == {
        ("uagv", "HAM-01"), ("uagv", "HAM-02"), ("uagv", "HAM-03"),
        ("uagv-muc", "MUC-01"), ("uagv-muc", "MUC-02"),
    }  # fmt: skip
    truths = [run.truth() for run in runs]
    assert [v.serial_number for v in truths[1].vehicles] == ["MUC-01", "MUC-02"]
    assert truths[1].vehicles[0].interface == "uagv-muc"
