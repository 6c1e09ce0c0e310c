"""Fixtures of the ingestion tests: an app store with two sites, a fact store, a pipeline."""

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from fleetscope.appstore.db import SessionFactory, make_session_factory
from fleetscope.appstore.models import Base, Organization, Site
from fleetscope.facts.store import FactStore
from fleetscope.ingest.pipeline import IngestPipeline
from fleetscope.ingest.service import build_pipeline
from fleetscope.settings import Settings


@dataclass
class IngestEnv:
    settings: Settings
    session_factory: SessionFactory
    site_a: int  # MQTT interface "uagv"
    site_b: int  # MQTT interface "siteb"

    def store(self) -> FactStore:
        return FactStore(self.settings.resolved_facts_path())

    def pipeline(self, store: FactStore) -> IngestPipeline:
        return build_pipeline(self.settings, session_factory=self.session_factory, store=store)


@pytest.fixture
def ingest_env(tmp_path: Path) -> Iterator[IngestEnv]:
    settings = Settings(
        environment="test",
        data_dir=tmp_path,
        database_url=f"sqlite:///{tmp_path / 'app.sqlite'}",
        facts_path=str(tmp_path / "facts.duckdb"),
    )
    engine = create_engine(settings.database_url)
    Base.metadata.create_all(engine)
    factory = make_session_factory(engine)
    with factory() as session:
        organization = Organization(name="Acme Logistics", created_at=datetime.now(UTC))
        session.add(organization)
        session.flush()
        site_a = Site(
            organization_id=organization.id,
            name="Plant A",
            time_zone="Europe/Berlin",
            shifts=[],
            workflow_rules=[],
            mqtt_interface="uagv",
        )
        site_b = Site(
            organization_id=organization.id,
            name="Plant B",
            time_zone="America/Chicago",
            shifts=[],
            workflow_rules=[],
            mqtt_interface="siteb",
        )
        session.add_all([site_a, site_b])
        session.commit()
        env = IngestEnv(settings, factory, site_a.id, site_b.id)
    yield env
    engine.dispose()


@pytest.fixture
def store(ingest_env: IngestEnv) -> Iterator[FactStore]:
    with ingest_env.store() as fact_store:
        yield fact_store
