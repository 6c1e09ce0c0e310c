"""Vehicle registry: maps VDA 5050 manufacturer + serialNumber to app-store vehicles.

Unknown vehicles are registered in the site the message came for: the API token's site
(HTTP) or the site whose MQTT interface name equals the topic's interface (MQTT, import),
else a configured default site. Lookups are cached for ``ttl_s`` so an administrator's move
of a vehicle or change of a site's rules takes effect without a restart.
"""

import threading
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fleetscope.appstore.db import SessionFactory
from fleetscope.appstore.models import Site, Vehicle


class RegistryError(ValueError):
    """The message cannot be assigned to a vehicle; ``str(err)`` is the rejection reason."""


@dataclass(frozen=True, slots=True)
class VehicleInfo:
    vehicle_id: int
    site_id: int
    time_zone: str
    workflow_rules: tuple[Any, ...]
    model: str | None
    protocol_version: str | None


@dataclass(frozen=True, slots=True)
class _Cached:
    info: VehicleInfo
    loaded_at: float


def _info(vehicle: Vehicle, site: Site) -> VehicleInfo:
    return VehicleInfo(
        vehicle_id=vehicle.id,
        site_id=site.id,
        time_zone=site.time_zone,
        workflow_rules=tuple(site.workflow_rules or ()),
        model=vehicle.model,
        protocol_version=vehicle.protocol_version,
    )


class VehicleRegistry:
    def __init__(
        self,
        *,
        session_factory: SessionFactory,
        default_site_id: int | None = None,
        ttl_s: float = 30.0,
    ) -> None:
        self._session_factory = session_factory
        self._default_site_id = default_site_id
        self._ttl_s = ttl_s
        self._by_identity: dict[tuple[str, str], _Cached] = {}
        self._by_id: dict[int, _Cached] = {}
        self._lock = threading.Lock()

    def resolve(
        self,
        *,
        manufacturer: str,
        serial_number: str,
        interface: str,
        site_id: int | None,
    ) -> VehicleInfo:
        """The vehicle of a message; registers it when new. ``site_id``: the sender's site."""
        identity = (manufacturer, serial_number)
        with self._lock:
            cached = self._by_identity.get(identity)
        if cached is None or time.monotonic() - cached.loaded_at > self._ttl_s:
            info = self._load_or_register(identity, interface=interface, site_id=site_id)
        else:
            info = cached.info
        if site_id is not None and info.site_id != site_id:
            raise RegistryError(
                f"vehicle {manufacturer}/{serial_number} belongs to another site; "
                "this API token may only write for vehicles of its own site"
            )
        return info

    def by_id(self, vehicle_id: int) -> VehicleInfo:
        with self._lock:
            cached = self._by_id.get(vehicle_id)
        if cached is not None and time.monotonic() - cached.loaded_at <= self._ttl_s:
            return cached.info
        with self._session_factory() as session:
            vehicle = session.get(Vehicle, vehicle_id)
            if vehicle is None:
                raise RegistryError(f"vehicle {vehicle_id} no longer exists")
            info = _info(vehicle, vehicle.site)
            self._remember((vehicle.manufacturer, vehicle.serial_number), info)
        return info

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
            self._remember((vehicle.manufacturer, vehicle.serial_number), info)

    def _remember(self, identity: tuple[str, str], info: VehicleInfo) -> None:
        cached = _Cached(info=info, loaded_at=time.monotonic())
        with self._lock:
            self._by_identity[identity] = cached
            self._by_id[info.vehicle_id] = cached

    def _load_or_register(
        self, identity: tuple[str, str], *, interface: str, site_id: int | None
    ) -> VehicleInfo:
        manufacturer, serial_number = identity
        with self._session_factory() as session:
            vehicle = session.scalars(
                select(Vehicle).where(
                    Vehicle.manufacturer == manufacturer, Vehicle.serial_number == serial_number
                )
            ).one_or_none()
            if vehicle is None:
                site = self._home_site(session, interface=interface, site_id=site_id)
                vehicle = Vehicle(
                    site_id=site.id,
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
                    return self._load_or_register(identity, interface=interface, site_id=site_id)
            info = _info(vehicle, vehicle.site)
        self._remember(identity, info)
        return info

    def _home_site(self, session: Session, *, interface: str, site_id: int | None) -> Site:
        if site_id is not None:
            token_site = session.get(Site, site_id)
            if token_site is None:
                raise RegistryError(f"site {site_id} of the API token no longer exists")
            return token_site
        site = session.scalars(select(Site).where(Site.mqtt_interface == interface)).one_or_none()
        if site is None and self._default_site_id is not None:
            site = session.get(Site, self._default_site_id)
        if site is None:
            raise RegistryError(
                f"no site receives vehicles of interface {interface!r}: set a site's MQTT "
                "interface to it (administration) or configure a default site"
            )
        return site
