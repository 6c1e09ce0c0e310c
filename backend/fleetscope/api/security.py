"""Web security for every response and request: headers, proxies and body size.

- Security headers on every response (API, web app, docs): a Content-Security-Policy that
  lets the built web app load only from this server, no framing, no MIME sniffing, no
  referrer to other sites, and HSTS in production. A response that brings its own policy
  (the API docs page) keeps it.
- X-Forwarded-For and X-Forwarded-Proto are believed only from ``settings.trusted_proxies``
  (uvicorn's ``ProxyHeadersMiddleware``); from anybody else they are ignored, so the login
  throttle counts the address that really connected.
- Request heads are bounded exactly (``api/request_head.py``), request bodies in size and
  in the time they take to arrive (``api/request_body.py``).

Pure ASGI middlewares: Starlette's ``BaseHTTPMiddleware`` would cost more than some of the
requests they wrap, and would buffer the streams.
"""

from functools import partial

from fastapi import FastAPI
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from fleetscope.api.docs_page import install_docs
from fleetscope.api.request_body import RequestBodyMiddleware
from fleetscope.api.request_head import RequestHeadMiddleware
from fleetscope.settings import Settings

Headers = list[tuple[bytes, bytes]]

HSTS_SECONDS = 365 * 24 * 3600
INGEST_PATH = "/Ingest/vda5050"  # below the API prefix; see api/routes/ingest.py

# Mantine and ECharts set style attributes and inject <style> elements at run time, hence
# 'unsafe-inline' for styles only; scripts come from this server alone.
WEB_APP_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data: blob:",
    "font-src": "'self' data:",
    "connect-src": "'self'",
    "worker-src": "'self' blob:",
    "object-src": "'none'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
}


def content_security_policy(script_src: str = "'self'", *, connect_origins: str = "") -> str:
    policy = {**WEB_APP_POLICY, "script-src": script_src}
    if connect_origins:
        policy["connect-src"] = f"'self' {connect_origins}"
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


def security_headers(*, settings: Settings) -> Headers:
    headers = {
        "content-security-policy": content_security_policy(
            connect_origins=settings.csp_connect_origins
        ),
        "x-content-type-options": "nosniff",
        "x-frame-options": "DENY",
        "referrer-policy": "same-origin",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
        "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    }
    if settings.environment == "production":
        # Without includeSubDomains: other hosts of the operator's domain are not ours.
        headers["strict-transport-security"] = f"max-age={HSTS_SECONDS}"
    return [(name.encode(), value.encode()) for name, value in headers.items()]


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp, *, headers: Headers) -> None:
        self._app = app
        self._headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self._app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: Headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers.extend(item for item in self._headers if item[0] not in present)
                message = {**message, "headers": headers}
            await send(message)

        await self._app(scope, receive, send_with_headers)


def install_web_security(app: FastAPI, *, settings: Settings, api_prefix: str) -> None:
    """The middlewares above and the self-hosted API docs; call before the web app's mount."""
    install_docs(
        app,
        api_prefix=api_prefix,
        policy_for_scripts=partial(
            content_security_policy, connect_origins=settings.csp_connect_origins
        ),
    )
    # Added innermost first: the proxy headers are resolved before anything else runs, and
    # the security headers land on every answer, the 431, 413 and 408 too.
    app.add_middleware(
        RequestBodyMiddleware,
        limit=settings.json_max_body_bytes,
        seconds=settings.request_body_seconds,
        streamed_paths=[f"{api_prefix}{INGEST_PATH}"],
        streamed_limit=settings.ingest_max_body_bytes,
        budget=settings.request_bodies_max_bytes,
    )
    app.add_middleware(RequestHeadMiddleware, limit=settings.max_request_head_bytes)
    app.add_middleware(SecurityHeadersMiddleware, headers=security_headers(settings=settings))
    if settings.trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)
