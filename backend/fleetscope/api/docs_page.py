"""The interactive API documentation at ``/v2/docs``, served wholly by this server.

FastAPI's default page loads Swagger UI from a CDN, and its favicon from another host: a
third party could run script in a page that holds the user's session. Swagger UI's files
come from the ``swagger-ui-py`` package instead, and the page's one inline script (Swagger
UI's start-up) is allowed by its hash alone.
"""

import base64
import hashlib
import re
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

_INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.DOTALL)


def swagger_ui_assets() -> Path:
    """Swagger UI's distribution files, as the ``swagger-ui-py`` package ships them."""
    return Path(str(files("swagger_ui").joinpath("static")))


def inline_script_hashes(html: bytes) -> list[str]:
    """CSP sources that allow exactly the inline scripts of ``html``."""
    digests = (hashlib.sha256(script).digest() for script in _INLINE_SCRIPT.findall(html))
    return [f"'sha256-{base64.b64encode(digest).decode()}'" for digest in digests]


def install_docs(
    app: FastAPI, *, api_prefix: str, policy_for_scripts: Callable[[str], str]
) -> None:
    """``GET {api_prefix}/docs`` and its assets; the app is created with ``docs_url=None``.
    ``policy_for_scripts``: the Content-Security-Policy for a page with these script-src."""
    assets = f"{api_prefix}/docs/assets"
    page = get_swagger_ui_html(
        openapi_url=app.openapi_url or f"{api_prefix}/openapi.json",
        title=f"{app.title} - API documentation",
        swagger_js_url=f"{assets}/swagger-ui-bundle.js",
        swagger_css_url=f"{assets}/swagger-ui.css",
        swagger_favicon_url=f"{assets}/favicon-32x32.png",
        # Swagger UI would otherwise send the document to its public validator.
        swagger_ui_parameters={"validatorUrl": None},
    )
    html = bytes(page.body)
    script_src = " ".join(["'self'", *inline_script_hashes(html)])
    policy = policy_for_scripts(script_src)

    @app.get(f"{api_prefix}/docs", include_in_schema=False)
    def api_docs() -> HTMLResponse:
        return HTMLResponse(html, headers={"Content-Security-Policy": policy})

    app.mount(assets, StaticFiles(directory=swagger_ui_assets()), name="docs-assets")
