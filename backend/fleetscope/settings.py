"""One place for configuration; read from the environment (prefix ``FLEETSCOPE_``) or ``.env``."""

import ipaddress
import re
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="FLEETSCOPE_", env_file=".env", extra="ignore")

    environment: Literal["development", "production", "test"] = "development"
    data_dir: Path = Path("var")
    # SQLAlchemy URL of the application store; empty means a SQLite file in data_dir.
    database_url: str = ""
    # DuckDB file of the fact store; empty means data_dir/facts.duckdb.
    facts_path: str = ""
    # DuckDB's own bounds for the fact store (docs/facts.md "Memory"): the memory its queries
    # and caches may take (a size such as 512MiB or 2GB; beyond it DuckDB spills to disk),
    # and its threads (0: one per core).
    fact_store_memory_limit: str = "512MiB"
    fact_store_threads: int = Field(default=0, ge=0)
    host: str = "127.0.0.1"
    port: int = 8000
    frontend_dist: Path = Path("frontend/dist")

    session_days: int = 14
    login_attempts_per_minute: int = 10
    # Page views (appstore/page_views.py): per user and minute, and how long they are kept.
    page_views_per_minute: int = Field(default=60, gt=0)
    page_view_retention_days: float = Field(default=400.0, gt=0, le=3650)

    # Web security (api/security.py, docs/architecture.md "Security").
    # Reverse proxies (addresses or networks, comma-separated) whose X-Forwarded-For and
    # X-Forwarded-Proto are believed; empty: none, the connecting address is the client.
    trusted_proxies: str = ""
    # Request bodies of the API other than POST /v2/Ingest/vda5050 (ingest_max_body_bytes).
    json_max_body_bytes: int = Field(default=1024 * 1024, gt=0)
    # Time a request body may take to arrive after its head (api/request_body.py): 1 MiB of
    # JSON, or a 16 MiB ingestion batch at 4.5 Mbit/s; a body still arriving is answered 408.
    request_body_seconds: float = Field(default=30.0, gt=0)
    # Bytes of request bodies all requests together may hold at once (api/request_body.py):
    # beyond, a request with a body is answered 503 with Retry-After before it is read.
    request_bodies_max_bytes: int = Field(default=128 * 1024 * 1024, gt=0)
    # Time a request head may take to arrive (cli/head_deadline.py): then the connection is
    # closed. It also bounds how long an opened connection may stay silent.
    request_head_seconds: float = Field(default=20.0, gt=0)
    # Request line and headers buffered while incomplete (cli/serve.py); at least the longest
    # query the API takes (a 20,000-character vehicle list) with a browser's headers.
    max_request_head_bytes: int = Field(default=64 * 1024, ge=32 * 1024)
    # Origins the web app may also connect to (space-separated), e.g. the error-reporting
    # origin of a build with VITE_SENTRY_DSN; everything else is limited to this server.
    csp_connect_origins: str = ""

    # MQTT ingestion runs inside the server only when a broker URL is set (mqtt://host:port).
    mqtt_url: str = ""
    mqtt_interface: str = "uagv"
    # Keys the broker's persistent session: unique per installation. Empty means the id made
    # on the first start and kept in data_dir/mqtt-client-id (ingest/client_id.py).
    mqtt_client_id: str = ""
    ingest_max_body_bytes: int = Field(default=16 * 1024 * 1024, gt=0)
    # Lines of one HTTP batch: each costs memory and a verdict whether or not it is a message
    # (a real one has 150 bytes at least, so 16 MiB of them rarely has more).
    ingest_max_lines: int = Field(default=50_000, gt=0)
    offline_after_seconds: float = Field(default=65.0, gt=0)

    # Ingestion limits (docs/ingestion.md "Invalid input" and "Dead letters"): a header
    # timestamp before earliest_timestamp (1970 at the earliest) or more than
    # timestamp_skew_seconds after the receive time makes the message a dead letter. Dead
    # letters keep dead_letter_payload_bytes of the payload (with its full size and SHA-256),
    # at most dead_letters_per_source_minute per source and minute (the rest is counted),
    # for dead_letter_retention_days.
    earliest_timestamp: datetime = datetime(2000, 1, 1, tzinfo=UTC)
    timestamp_skew_seconds: float = Field(default=300.0, ge=0, le=86_400)
    # One message's payload (vda5050/limits.py): larger ones are dead letters, unparsed.
    max_message_bytes: int = Field(default=1024 * 1024, gt=0, le=256 * 1024 * 1024)
    dead_letter_payload_bytes: int = Field(default=64 * 1024, ge=0, le=16 * 1024 * 1024)
    dead_letters_per_source_minute: int = Field(default=1000, ge=0)
    dead_letter_retention_days: float = Field(default=30.0, gt=0, le=3650)
    # Vehicles register themselves with their first message (ingest/registry.py): a sender
    # that makes up serial numbers would add vehicles without end. A site's new vehicle
    # beyond this many is a dead letter; its known vehicles keep reporting.
    max_vehicles_per_site: int = Field(default=2000, gt=0)

    # Serving under load (api/admission.py): API requests in progress per lane; up to
    # admission_queue more wait at most admission_wait_seconds each, beyond that a 503
    # with Retry-After. The app store's pool and the worker threads are sized from these.
    analytics_concurrency: int = Field(default=4, gt=0)
    api_concurrency: int = Field(default=8, gt=0)
    ingest_concurrency: int = Field(default=4, gt=0)
    max_open_streams: int = Field(default=200, gt=0)
    # Statusboard streams one login session may hold open (wall TVs and tabs), so that one
    # caller cannot take the places of everybody's statusboard.
    max_open_streams_per_caller: int = Field(default=20, gt=0)
    admission_queue: int = Field(default=64, ge=0)
    admission_wait_seconds: float = Field(default=3.0, gt=0)
    retry_after_seconds: int = Field(default=1, gt=0)
    worker_threads: int = Field(default=40, gt=0)
    # How often an open statusboard stream checks that its login session still holds and
    # still sees the stream's vehicles.
    stream_session_check_seconds: float = Field(default=5.0, gt=0)

    @field_validator("earliest_timestamp")
    @classmethod
    def _from_1970(cls, value: datetime) -> datetime:
        """UTC when no offset is given; the store's times start in 1970 (vda5050/limits.py)."""
        value = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        if value < datetime(1970, 1, 1, tzinfo=UTC):
            raise ValueError("the earliest accepted timestamp must not be before 1970")
        return value.astimezone(UTC)

    @field_validator("fact_store_memory_limit")
    @classmethod
    def _duckdb_size(cls, value: str) -> str:
        """A size DuckDB reads, checked here so a typo stops the start with its name."""
        if not re.fullmatch(r"\d+(\.\d+)?\s*([KMGT]i?B|B)", value.strip(), re.IGNORECASE):
            raise ValueError(f"{value!r} is not a size such as 512MiB or 2GB")
        return value.strip()

    @field_validator("trusted_proxies")
    @classmethod
    def _proxy_networks(cls, value: str) -> str:
        """Each entry an address or network, so a typo is an error, not a proxy nobody trusts."""
        entries = [entry.strip() for entry in value.split(",") if entry.strip()]
        return ",".join(str(ipaddress.ip_network(entry, strict=False)) for entry in entries)

    @field_validator("csp_connect_origins")
    @classmethod
    def _web_origins(cls, value: str) -> str:
        origins = value.split()
        for origin in origins:
            if not origin.startswith(("https://", "http://")) or any(c in origin for c in ";,'"):
                raise ValueError(f"{origin!r} is not an http(s) origin")
        return " ".join(origins)

    @property
    def secure_cookies(self) -> bool:
        return self.environment == "production"

    def resolved_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'fleetscope.sqlite').resolve()}"

    def resolved_facts_path(self) -> Path:
        return Path(self.facts_path) if self.facts_path else self.data_dir / "facts.duckdb"


@lru_cache
def get_settings() -> Settings:
    return Settings()
