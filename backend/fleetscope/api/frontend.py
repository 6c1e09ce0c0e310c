"""The built single-page app at ``/``: long-lived caching of hashed assets, precompressed
Brotli/gzip copies chosen by ``Accept-Encoding``, and no source maps.

The build (``vite.config.ts``) names every bundled file ``assets/<name>-<hash>.<ext>`` and
writes ``<file>.br`` and ``<file>.gz`` beside each text asset. A hashed name never changes
its content, so browsers keep those files for a year without asking again; ``index.html``
and the other unhashed files are revalidated on every load (cheap: ETag, 304), so a new
deployment is picked up at once.
"""

import mimetypes
import re
import stat
from pathlib import Path, PurePosixPath

import anyio.to_thread
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.routing import Match, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

_REPOSITORY_ROOT = Path(__file__).resolve().parents[3]

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Vite's file names for bundled assets: ``<name>-<8-character content hash>.<extension>``.
_HASHED_ASSET = re.compile(r"^assets/(?:[^/]+/)*[^/]+-[A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$")
# Best first: Brotli files are 10-20 % smaller than gzip for the bundles.
_PRECOMPRESSED = (("br", ".br"), ("gzip", ".gz"))
_COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".svg", ".json", ".html"})


def frontend_missing_message(dist: Path) -> str:
    return (
        "Fleetscope's API is running, but the web app is not built: "
        f"{dist} has no index.html.\n"
        "Build it with `make build` (or `cd frontend && npm ci && npm run build`) "
        "and restart the server. The API is at /v2/, its documentation at /v2/docs.\n"
    )


def resolve_frontend_dist(dist: Path) -> Path:
    """A relative folder is looked up from the working directory, then the repository root."""
    if dist.is_absolute() or (Path.cwd() / dist).is_dir():
        return dist.resolve()
    return _REPOSITORY_ROOT / dist


def accepted_encodings(accept_encoding: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header allows (``q=0`` refuses one)."""
    accepted: set[str] = set()
    refused: set[str] = set()
    for item in accept_encoding.split(","):
        name, _, params = item.partition(";")
        coding = name.strip().lower()
        if not coding:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        (accepted if quality > 0 else refused).add(coding)
    if "*" in accepted:
        accepted |= {coding for coding, _ in _PRECOMPRESSED} - refused
    return accepted


def cache_control_for(path: str) -> str:
    """``path`` relative to the build folder, with ``/`` separators."""
    return IMMUTABLE if _HASHED_ASSET.match(path) else REVALIDATE


def _media_type(path: str) -> str:
    media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"{media_type}; charset=utf-8" if media_type.startswith("text/") else media_type


class FrontendFiles(StaticFiles):
    """Starlette's static files (path checks, ETag, 304, ranges) plus the policy above,
    through its public ``get_response``, ``lookup_path`` and ``file_response``."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        relative = PurePosixPath(*Path(path).parts).as_posix()
        if relative == ".":
            relative = "index.html"
        if relative.endswith(".map"):
            # Source maps would publish the sources; production builds emit none anyway.
            raise HTTPException(status_code=404)
        response = await self._precompressed(relative, scope)
        if response is None:
            response = await super().get_response(path, scope)
        if response.status_code in (200, 206, 304):
            response.headers["Cache-Control"] = cache_control_for(relative)
        return response

    async def _precompressed(self, relative: str, scope: Scope) -> Response | None:
        """The best precompressed copy the client accepts; ``None`` for the plain file."""
        if PurePosixPath(relative).suffix not in _COMPRESSIBLE or scope["method"] not in (
            "GET",
            "HEAD",
        ):
            return None
        accepted = accepted_encodings(Headers(scope=scope).get("accept-encoding", ""))
        has_variants = False
        for coding, suffix in _PRECOMPRESSED:
            full_path, stat_result = await anyio.to_thread.run_sync(
                self.lookup_path, relative + suffix
            )
            if stat_result is None or not stat.S_ISREG(stat_result.st_mode):
                continue
            has_variants = True
            if coding in accepted:
                response = self.file_response(full_path, stat_result, scope)
                response.headers["Content-Type"] = _media_type(relative)
                response.headers["Content-Encoding"] = coding
                response.headers["Vary"] = "Accept-Encoding"
                return response
        if not has_variants:
            return None
        full_path, stat_result = await anyio.to_thread.run_sync(self.lookup_path, relative)
        if stat_result is None or not stat.S_ISREG(stat_result.st_mode):
            return None
        response = self.file_response(full_path, stat_result, scope)
        response.headers["Vary"] = "Accept-Encoding"
        return response


class OutsideApiMount(Mount):
    """A mount at ``/`` for every path but the API's. A mount at ``/`` alone matches every
    path and method, and the router takes a full match over a route whose path matches but
    whose method does not: ``GET /v2/User/login`` (a POST) would be the web app's 404 instead
    of the API's 405."""

    def __init__(self, *, api_prefix: str, app: StaticFiles) -> None:
        super().__init__("/", app=app, name="frontend")
        self._api_prefix = api_prefix

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        path: str = scope.get("path", "")
        if path == self._api_prefix or path.startswith(f"{self._api_prefix}/"):
            return Match.NONE, {}
        return super().matches(scope)


def mount_frontend(app: FastAPI, *, dist: Path, api_prefix: str) -> None:
    """The web app at ``/`` for every path outside ``api_prefix`` (mount it after the API
    routes), or a plain 503 at ``/`` saying how to build it."""
    folder = resolve_frontend_dist(dist)
    if (folder / "index.html").is_file():
        files = FrontendFiles(directory=folder, html=True)
        app.router.routes.append(OutsideApiMount(api_prefix=api_prefix, app=files))
        return
    message = frontend_missing_message(folder)

    @app.get("/", include_in_schema=False)
    def frontend_missing() -> PlainTextResponse:
        return PlainTextResponse(message, status_code=503)
