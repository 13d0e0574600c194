"""Build the app: settings, database, middleware, error answers and the routers."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Mapping
from importlib.resources import files

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.deps import SET_COOKIE_KEY, AuthError, CsrfError
from calhamer.server.pages import render_error
from calhamer.server.routes import ROUTERS
from calhamer.server.security import COOKIE, Passwords, Signer
from calhamer.server.service import Conflict, Invalid, NotFound
from calhamer.server.worker import Worker

logger = logging.getLogger("calhamer.server")

NOT_FOUND = "not found"


def create_app(settings: Settings | None = None, db: Database | None = None) -> FastAPI:
    """The app. ``db`` (for tests) reuses an open database; otherwise one is opened from the
    settings and migrated to the latest schema."""
    settings = settings or Settings.from_env()
    if db is None:
        db = settings.open_database()
        db.migrate()
    signer = Signer(settings.secret_key or db.secret_key(), settings.session_max_age,
                    settings.clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        worker = None
        if settings.embedded_worker:
            worker = Worker(db, settings)
            app.state.worker = worker
            worker.start()
        try:
            yield
        finally:
            if worker is not None:
                worker.stop()

    app = FastAPI(
        title="calhamer",
        summary="A Diplomacy judge: games played in the browser and by bots over JSON.",
        version=_version(),
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.db = db
    app.state.signer = signer
    app.state.passwords = Passwords(settings.argon2_time_cost, settings.argon2_memory_kib)
    app.state.worker = None
    _error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    static = files("calhamer.server") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_middleware(SessionCookieMiddleware, secure=settings.secure_cookies,
                       max_age=settings.session_max_age)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    return app


def _version() -> str:
    from calhamer import __version__

    return __version__


# -- error answers: JSON under /api, pages elsewhere ---------------------------------------------


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api")


def _error(request: Request, status: int, message: str,
           headers: Mapping[str, str] | None = None) -> Response:
    if _is_api(request):
        return JSONResponse({"detail": message}, status_code=status,
                            headers=dict(headers or {}))
    return render_error(request, status, message, headers=dict(headers or {}))


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> Response:
        return _error(request, 404, NOT_FOUND)

    @app.exception_handler(Conflict)
    async def conflict(request: Request, exc: Conflict) -> Response:
        return _error(request, 409, str(exc))

    @app.exception_handler(Invalid)
    async def invalid(request: Request, exc: Invalid) -> Response:
        return _error(request, 400, str(exc))

    @app.exception_handler(AuthError)
    async def auth_error(request: Request, exc: AuthError) -> Response:
        if _is_api(request):
            return JSONResponse({"detail": exc.message}, status_code=401,
                                headers={"WWW-Authenticate": "Bearer"})
        response = render_error(request, 401, exc.message)
        response.delete_cookie(COOKIE)
        return response

    @app.exception_handler(CsrfError)
    async def csrf_error(request: Request, exc: CsrfError) -> Response:
        return _error(request, 403, "this form has expired or did not come from this site; "
                      "reload the page and try again")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return _error(request, 404, NOT_FOUND)
        message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        return _error(request, exc.status_code, message, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        problems = []
        for error in exc.errors():
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
            problems.append({"loc": where, "msg": error.get("msg", "invalid")})
        summary = "; ".join(f"{p['loc']}: {p['msg']}" if p["loc"] else p["msg"]
                            for p in problems[:5])
        if _is_api(request):
            return JSONResponse({"detail": summary, "errors": problems}, status_code=422)
        return render_error(request, 400, summary)


# -- middleware ----------------------------------------------------------------------------------


class BodyTooLarge(StarletteHTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


class BodyLimitMiddleware:
    """Refuse request bodies over ``max_bytes`` with 413, declared or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared < 0 or declared > self.max_bytes:
                status = 413 if declared > self.max_bytes else 400
                message = (f"the request body is larger than {self.max_bytes} bytes"
                           if status == 413 else "the Content-Length header is not a number")
                await _plain_error(scope, receive, send, status, message)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(self.max_bytes)
            return message

        await self.app(scope, limited, send)


async def _plain_error(scope: Scope, receive: Receive, send: Send, status: int,
                       message: str) -> None:
    path = scope.get("path", "")
    if path.startswith("/api"):
        response: Response = JSONResponse({"detail": message}, status_code=status)
    else:
        response = Response(message + "\n", status_code=status, media_type="text/plain")
    await response(scope, receive, send)


class SecurityHeadersMiddleware:
    """Headers every answer carries: no framing, no MIME sniffing, and no Referer leaving the
    site (an invitation link is a secret in the address). Pages may load only this site's own
    scripts and styles; FastAPI's /docs (which loads Swagger from a CDN) is left alone."""

    HEADERS = ((b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
               (b"referrer-policy", b"same-origin"))
    CSP = (b"content-security-policy",
           b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
           b"form-action 'self'; base-uri 'none'")

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        extra = list(self.HEADERS)
        if not path.startswith(("/docs", "/redoc")):
            extra.append(self.CSP)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class SessionCookieMiddleware:
    """Send the session cookie a route asked for (``deps.set_session_cookie``)."""

    def __init__(self, app: ASGIApp, secure: bool, max_age: int) -> None:
        self.app = app
        self.secure = secure
        self.max_age = max_age

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message: Message) -> None:
            value = scope.get(SET_COOKIE_KEY)
            if message["type"] == "http.response.start" and value:
                headers = list(message.get("headers", []))
                already = any(k.lower() == b"set-cookie" and v.startswith(COOKIE.encode() + b"=")
                              for k, v in headers)
                if not already:
                    cookie = (f"{COOKIE}={value}; Path=/; Max-Age={self.max_age}; HttpOnly; "
                              f"SameSite=Lax{'; Secure' if self.secure else ''}")
                    headers.append((b"set-cookie", cookie.encode("latin-1")))
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_cookie)
