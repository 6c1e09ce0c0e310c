"""Two administrators on one site: a change sent with the version it was made on is refused
(409, nothing changes) once another change has landed, so the whole lists the site page saves
(shifts, rules) and a partner's organizations never silently undo someone else's change."""

from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fleetscope.demo.seed import DemoData
from tests.admin.admin_kit import SUPERUSER, data, refused

SITES = "/v2/Admin/Sites"


def _renamed(shifts: list[dict[str, Any]], shift_id: str, name: str) -> list[dict[str, Any]]:
    return [{**shift, "name": name} if shift["id"] == shift_id else shift for shift in shifts]


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_change_made_on_an_older_version_is_refused_and_changes_nothing(
    client: TestClient, seeded: DemoData, login: Callable[..., Any], language: str
) -> None:
    login(client, SUPERUSER)
    url = f"{SITES}/{seeded.site_ids['Hamburg DC']}"
    read_by_a = data(client.get(url))
    read_by_b = data(client.get(url))
    assert read_by_a["version"] == read_by_b["version"]

    b_saves = {"shifts": _renamed(read_by_b["shifts"], "early", "Early (B)")}
    saved = data(client.patch(url, json={**b_saves, "version": read_by_b["version"]}))["site"]
    assert saved["version"] != read_by_b["version"]

    a_saves = {"shifts": _renamed(read_by_a["shifts"], "late", "Late (A)")}
    message = refused(
        client.patch(
            url,
            json={**a_saves, "version": read_by_a["version"]},
            headers={"Accept-Language": language},
        ),
        409,
    )
    assert (
        message
        == {
            "en": "Hamburg DC was changed by someone else meanwhile: reload it and make your "
            "change again",
            "de": "Hamburg DC wurde inzwischen von jemand anderem geändert: bitte neu laden und "
            "die Änderung noch einmal vornehmen",
        }[language]
    )
    now = data(client.get(url))
    assert [shift["name"] for shift in now["shifts"]][:2] == ["Early (B)", "Late"]
    assert now["version"] == saved["version"]

    # Made on the version now read, the change goes through; without a version, as before.
    a_again = {"shifts": _renamed(now["shifts"], "late", "Late (A)")}
    data(client.patch(url, json={**a_again, "version": now["version"]}))
    data(client.patch(url, json={"name": "Hamburg DC"}))


@pytest.mark.parametrize("language", ["en", "de"])
def test_partner_links_made_on_an_older_list_are_refused_and_change_nothing(
    client: TestClient, seeded: DemoData, login: Callable[..., Any], language: str
) -> None:
    """The partner links are saved as a whole list too: ``editedFrom`` names the list a
    change was made on."""
    login(client, SUPERUSER)
    links = f"/v2/Admin/Users/{seeded.user_ids['partner@demo.fleetscope']}/PartnerOrganizations"
    nordlicht = seeded.organization_ids["Nordlicht Logistik"]
    alpen = seeded.organization_ids["Alpenfracht AG"]
    read = data(client.get(links))["organizationIds"]
    assert read == [nordlicht]

    # B adds Alpenfracht; A, on the list read before, removes Nordlicht: refused.
    b_saves = {"organizationIds": [nordlicht, alpen], "editedFrom": read}
    assert data(client.put(links, json=b_saves))["organizationIds"] == sorted([nordlicht, alpen])
    a_saves = {"organizationIds": [], "editedFrom": read}
    message = refused(client.put(links, json=a_saves, headers={"Accept-Language": language}), 409)
    assert (
        message
        == {
            "en": "the organizations of partner@demo.fleetscope were changed by someone else "
            "meanwhile: reload them and make your change again",
            "de": "die Organisationen von partner@demo.fleetscope wurden inzwischen von jemand "
            "anderem geändert: bitte neu laden und die Änderung noch einmal vornehmen",
        }[language]
    )
    assert data(client.get(links))["organizationIds"] == sorted([nordlicht, alpen])

    # Made on the list now read (in any order, repeated), it goes through; without, as before.
    again = {"organizationIds": [alpen], "editedFrom": [alpen, nordlicht, alpen]}
    assert data(client.put(links, json=again))["organizationIds"] == [alpen]
    assert data(client.put(links, json={"organizationIds": [nordlicht]}))["organizationIds"] == [
        nordlicht
    ]
