"""The security headers of every answer (OWASP's secure headers): what a browser may load, run
or frame, by kind of page.

- The review pages (``/ui/``): script, style, images and connections from this origin only,
  nothing inline (the pages have no inline script, style or handler), forms sent only here;
  never kept in a cache.
- The book report (``GET /batches/{id}/report.html``): a self-contained file whose only inline
  content is its style, and which runs no script (``reports.html.REPORT_CSP``).
- The OpenAPI pages (``/docs``, ``/redoc``) run FastAPI's inline script and load Swagger UI or
  ReDoc from a CDN: no policy on script, only on framing.
- Everything else (JSON, CSV, images): nothing may load or run at all.

Every answer is refused to frames (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``),
sent with ``nosniff`` and sends no referrer.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sudoku_batch.reports.html import REPORT_CSP

NO_FRAMES = "frame-ancestors 'none'"
UI_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    f"connect-src 'self'; form-action 'self'; base-uri 'none'; {NO_FRAMES}"
)
API_CSP = f"default-src 'none'; {NO_FRAMES}"
DOCS_PATHS = ("/docs", "/docs/oauth2-redirect", "/redoc")
REPORT_PATH = re.compile(r"/batches/[^/]+/report\.html")
ALWAYS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def security_headers(path: str) -> dict[str, str]:
    """The headers an answer to ``path`` carries."""
    if path == "/ui" or path.startswith("/ui/"):
        cache = {} if path.startswith("/ui/static/") else {"Cache-Control": "no-store"}
        return {**ALWAYS, "Content-Security-Policy": UI_CSP, **cache}
    if REPORT_PATH.fullmatch(path):
        return {**ALWAYS, "Content-Security-Policy": f"{REPORT_CSP}; {NO_FRAMES}"}
    if path in DOCS_PATHS:
        return {**ALWAYS, "Content-Security-Policy": NO_FRAMES}
    return {**ALWAYS, "Content-Security-Policy": API_CSP}


class SecurityHeaders:
    """ASGI middleware: adds ``security_headers`` to every HTTP answer, errors included."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        added = [
            (name.lower().encode(), value.encode())
            for name, value in security_headers(scope["path"]).items()
        ]

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in added if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
