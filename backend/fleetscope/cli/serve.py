"""``fleetscope serve``: the API and the web app in one uvicorn process."""

from typing import Annotated, Any

import typer
import uvicorn

from fleetscope.api.main import create_app
from fleetscope.cli.head_deadline import head_deadline_protocol
from fleetscope.private_files import private_dir, restrict_new_files
from fleetscope.settings import Settings, get_settings


def server_options(settings: Settings) -> dict[str, Any]:
    """How uvicorn serves the app, beside its address: for ``run_server`` and the tests."""
    return {
        # h11 bounds the request line and headers it buffers (a larger head is answered 400
        # and the connection closed); httptools would buffer a head of any size. The time a
        # head may take is bounded by the protocol's subclass.
        "http": head_deadline_protocol(settings.request_head_seconds),
        "h11_max_incomplete_event_size": settings.max_request_head_bytes,
        # The app reads X-Forwarded-* itself, and only from settings.trusted_proxies;
        # uvicorn's own handling would also believe any client on 127.0.0.1.
        "proxy_headers": False,
        "server_header": False,
    }


def run_server(*, settings: Settings, host: str, port: int) -> None:
    """Serve until interrupted; the store is migrated at start-up."""
    # The stores, their WAL files and whatever else the server writes: its owner's alone.
    restrict_new_files()
    private_dir(settings.data_dir, tighten=True)
    typer.echo(f"Fleetscope at http://{host}:{port}/  (API documentation: /v2/docs)")
    uvicorn.run(
        create_app(settings), host=host, port=port, log_level="info", **server_options(settings)
    )


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on.")] = None,
    port: Annotated[int | None, typer.Option(help="Port to listen on.", min=1, max=65535)] = None,
) -> None:
    """Start the server (API under /v2, web app at /)."""
    settings = get_settings()
    run_server(
        settings=settings,
        host=host or settings.host,
        port=port or settings.port,
    )
