"""``fleetscope openapi``: the API's OpenAPI document, as ``/v2/openapi.json`` serves it.

The frontend's API types are generated from it (``make api-types``), so the document is
built without a running server or a store.
"""

import json
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from fleetscope.api.main import create_app
from fleetscope.settings import Settings


def openapi_document() -> str:
    """The document as JSON text, keys in FastAPI's order, ending in a newline. The app is
    built on a throwaway SQLite store: the document does not depend on the store, and
    building it touches none of the configured ones."""
    with tempfile.TemporaryDirectory() as data_dir:
        settings = Settings(_env_file=None, data_dir=Path(data_dir), database_url="", facts_path="")
        app = create_app(settings)
        document = app.openapi()
        app.state.engine.dispose()
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def openapi_command(
    output: Annotated[
        Path | None, typer.Option(help="Write the document to this file instead of stdout.")
    ] = None,
) -> None:
    """Print the OpenAPI document of the API (or write it to a file)."""
    text = openapi_document()
    if output is None:
        typer.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
