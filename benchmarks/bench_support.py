"""Set-up shared by the ingestion benchmarks."""

from sqlalchemy import Engine, create_engine

from fleetscope.appstore.db import make_session_factory
from fleetscope.appstore.models import Base
from fleetscope.appstore.organizations import create_organization, create_site


def one_site_app_store(url: str, *, interface: str = "uagv") -> Engine:
    """An application store at ``url`` holding one organization with one site that receives
    the MQTT ``interface``; the schema comes from the models (no migrations to wait for)."""
    engine = create_engine(url)
    Base.metadata.create_all(engine)
    with make_session_factory(engine)() as session:
        organization = create_organization(session, name="Bench")
        create_site(session, organization=organization, name="Bench", mqtt_interface=interface)
    return engine
