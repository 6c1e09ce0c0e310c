"""Vehicle registry: maps a message's site + VDA 5050 manufacturer + serialNumber to a vehicle.

A vehicle's identity is (site, manufacturer, serialNumber). Every message arrives through a
site: the API token's site (HTTP, ``import --site``) or the site whose MQTT interface name
equals the topic's interface (MQTT, import), else ``default_site_id`` if one is given; a
message no site receives is refused. The vehicle is looked up, and registered when new, within that
site only. So two organizations may each run an ``AGV-01`` of the same manufacturer, no
tenant can write into, block or detect another's vehicle, and no answer depends on whether
a serial number exists at another site.

Look-ups are cached for ``ttl_s`` (keyed by site, never by serial number alone), so an
administrator's move of a vehicle or change of a site's rules or MQTT interface takes
effect without a restart (an interface's site at once: ``forget_interfaces``).

That holds within one organization too: a vehicle an administrator moved to another site
reports through its new site; what it still sends through its old one registers a vehicle
there, as any serial number new to that site would (the old site's statusboard shows it).

A site registers at most ``max_vehicles_per_site`` vehicles this way: a sender that makes up
serial numbers (one with a clock in it, say) gets dead letters, not a vehicle list without
end. A site found full is counted again after ``ttl_s``, so a stream of made-up serials
costs one look-up each, not a count.
"""

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import DataError, IntegrityError
from sqlalchemy.orm import Session

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import Site, Vehicle
from fleetscope.i18n import refusals
from fleetscope.i18n.text import Message

# (site id, manufacturer, serial number)
Identity = tuple[int, str, str]


class RegistryError(ValueError):
    """The message cannot be assigned to a vehicle; ``reason`` says why in every language,
    ``str(err)`` in English."""

    def __init__(self, reason: Message) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class VehicleInfo:
    vehicle_id: int
    site_id: int
    time_zone: str
    workflow_rules: tuple[Any, ...]
    load_action_types: tuple[Any, ...]
    model: str | None
    protocol_version: str | None


@dataclass(frozen=True, slots=True)
class _Cached:
    identity: Identity
    info: VehicleInfo
    loaded_at: float


def _info(vehicle: Vehicle, site: Site) -> VehicleInfo:
    return VehicleInfo(
        vehicle_id=vehicle.id,
        site_id=site.id,
        time_zone=site.time_zone,
        workflow_rules=tuple(site.workflow_rules or ()),
        load_action_types=tuple(site.load_action_types or ()),
        model=vehicle.model,
        protocol_version=vehicle.protocol_version,
    )


def _identity(vehicle: Vehicle) -> Identity:
    return (vehicle.site_id, vehicle.manufacturer, vehicle.serial_number)


class VehicleRegistry:
    def __init__(
        self,
        *,
        session_factory: SessionFactory,
        default_site_id: int | None = None,
        ttl_s: float = 30.0,
        max_vehicles_per_site: int | None = None,
    ) -> None:
        self._session_factory = session_factory
        self._default_site_id = default_site_id
        self._ttl_s = ttl_s
        self._max_vehicles_per_site = max_vehicles_per_site
        self._full_sites: dict[int, float] = {}  # site id -> when it was found full
        self._by_identity: dict[Identity, _Cached] = {}
        self._by_id: dict[int, _Cached] = {}
        # Interface name -> (site id or None: no site receives it, loaded at).
        self._interface_sites: dict[str, tuple[int | None, float]] = {}
        self._lock = threading.Lock()

    def resolve(
        self,
        *,
        manufacturer: str,
        serial_number: str,
        interface: str,
        site_id: int | None,
    ) -> VehicleInfo:
        """The vehicle of a message, registered when new.

        ``site_id``: the sender's site (API token, ``import --site``); None for MQTT and
        plain imports, where the topic's ``interface`` names the site.
        """
        try:
            home = site_id if site_id is not None else self._site_of_interface(interface)
            identity = (home, manufacturer, serial_number)
            with self._lock:
                cached = self._by_identity.get(identity)
            if cached is not None and time.monotonic() - cached.loaded_at <= self._ttl_s:
                return cached.info
            return self._load_or_register(identity)
        except DataError as error:
            # A value the app store cannot hold that decoding did not foresee: this message's
            # fault alone (a dead letter), not its batch's.
            detail = f"{type(error.orig).__name__}: {error.orig}"
            raise RegistryError(refusals.VEHICLE_NOT_STORABLE(error=detail)) from None

    def by_id(self, vehicle_id: int) -> VehicleInfo:
        with self._lock:
            cached = self._by_id.get(vehicle_id)
        if cached is not None and time.monotonic() - cached.loaded_at <= self._ttl_s:
            return cached.info
        with self._session_factory() as session:
            vehicle = session.get(Vehicle, vehicle_id)
            if vehicle is None:
                raise RegistryError(refusals.VEHICLE_GONE(vehicle=vehicle_id))
            info = _info(vehicle, vehicle.site)
            self._remember(_identity(vehicle), info)
        return info

    def forget(self, vehicle_ids: Iterable[int]) -> None:
        """Drop these vehicles from the cache: the next look-up reads their site's current
        configuration (a re-derivation must not wait ``ttl_s`` for a changed rule)."""
        with self._lock:
            for vehicle_id in vehicle_ids:
                cached = self._by_id.pop(vehicle_id, None)
                if cached is not None:
                    self._by_identity.pop(cached.identity, None)

    def forget_interfaces(self) -> None:
        """Read each interface's site again at its next message (a site changed)."""
        with self._lock:
            self._interface_sites.clear()

    def update_details(
        self, *, vehicle_id: int, model: str | None = None, protocol_version: str | None = None
    ) -> None:
        """Record what a factsheet (model) or any header (protocol version) says, if changed."""
        with self._session_factory() as session:
            vehicle = session.get(Vehicle, vehicle_id)
            if vehicle is None:
                return
            if model:
                vehicle.model = model
            if protocol_version:
                vehicle.protocol_version = protocol_version
            session.commit()
            info = _info(vehicle, vehicle.site)
            self._remember(_identity(vehicle), info)

    def _remember(self, identity: Identity, info: VehicleInfo) -> None:
        cached = _Cached(identity=identity, info=info, loaded_at=time.monotonic())
        with self._lock:
            previous = self._by_id.get(info.vehicle_id)
            if previous is not None and previous.identity != identity:
                # The vehicle moved: its old site must no longer reach it through the cache.
                self._by_identity.pop(previous.identity, None)
            self._by_identity[identity] = cached
            self._by_id[info.vehicle_id] = cached

    def _site_of_interface(self, interface: str) -> int:
        with self._lock:
            cached = self._interface_sites.get(interface)
        now = time.monotonic()
        if cached is None or now - cached[1] > self._ttl_s:
            with self._session_factory() as session:
                site_id = session.scalars(
                    select(Site.id).where(Site.mqtt_interface == interface)
                ).one_or_none()
            if site_id is None:
                site_id = self._default_site_id
            # Remembered when no site receives it too: a stream on such an interface
            # costs one query per ``ttl_s``, not one per message.
            cached = (site_id, now)
            with self._lock:
                self._interface_sites[interface] = cached
        if cached[0] is None:
            raise RegistryError(refusals.NO_SITE_FOR_INTERFACE(interface=interface))
        return cached[0]

    def _find(self, session: Session, identity: Identity) -> Vehicle | None:
        site_id, manufacturer, serial_number = identity
        return session.scalars(
            select(Vehicle).where(
                Vehicle.site_id == site_id,
                Vehicle.manufacturer == manufacturer,
                Vehicle.serial_number == serial_number,
            )
        ).one_or_none()

    def _check_room(self, session: Session, identity: Identity) -> None:
        """Refuse a new vehicle of a site that has ``max_vehicles_per_site`` already."""
        limit = self._max_vehicles_per_site
        if limit is None:
            return
        site_id, manufacturer, serial_number = identity
        with self._lock:
            full_at = self._full_sites.get(site_id)
        now = time.monotonic()
        if full_at is None or now - full_at > self._ttl_s:
            count = session.scalar(
                select(func.count()).select_from(Vehicle).where(Vehicle.site_id == site_id)
            )
            if (count or 0) < limit:
                return
            with self._lock:
                self._full_sites[site_id] = now
        raise RegistryError(
            refusals.SITE_FULL(
                site=site_id, limit=limit, manufacturer=manufacturer, serial=serial_number
            )
        )

    def _load_or_register(self, identity: Identity) -> VehicleInfo:
        site_id, manufacturer, serial_number = identity
        with self._session_factory() as session:
            vehicle = self._find(session, identity)
            if vehicle is None:
                site = session.get(Site, site_id)
                if site is None:
                    raise RegistryError(refusals.SITE_GONE(site=site_id))
                self._check_room(session, identity)
                vehicle = Vehicle(
                    site_id=site_id,
                    manufacturer=manufacturer,
                    serial_number=serial_number,
                    name=serial_number,
                    created_at=datetime.now(UTC),
                )
                session.add(vehicle)
                try:
                    session.commit()
                except IntegrityError:
                    # Registered by another process in the meantime: take that one.
                    session.rollback()
                    vehicle = self._find(session, identity)
                    if vehicle is None:
                        raise RegistryError(
                            refusals.VEHICLE_NOT_REGISTERED(
                                manufacturer=manufacturer, serial=serial_number, site=site_id
                            )
                        ) from None
            info = _info(vehicle, vehicle.site)
        self._remember(identity, info)
        return info
