"""Build the app: settings, database, middleware, error answers and the routers."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping
from importlib.resources import files
from typing import Any

from fastapi import FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic.json_schema import models_json_schema
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from calhamer.server.config import Settings
from calhamer.server.db import Database
from calhamer.server.deps import (
    PENDING_KEY,
    SET_COOKIE_KEY,
    AuthError,
    CsrfError,
    PendingViewer,
    api_user,
    api_viewer,
    optional_api_user,
    pending_api_viewer,
)
from calhamer.server.pages import render_error
from calhamer.server.routes import ROUTERS, TAGS
from calhamer.server.schemas import ErrorOut, ProblemOut, ValidationErrorOut
from calhamer.server.security import COOKIE, Passwords, Signer
from calhamer.server.services.common import Conflict, Invalid, NotFound
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
    # The Web Push key is made now, not inside a request's transaction (services.notices).
    from calhamer.server.services.notices import vapid_key, vapid_public_key

    vapid_public = vapid_public_key(vapid_key(db, settings))

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
        openapi_tags=[{"name": tag} for tag in TAGS],
        # FastAPI's own /docs and /redoc load their scripts from a CDN: /docs is served from
        # here instead (api_browser), under the same CSP as every page.
        docs_url=None, redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = db
    app.state.signer = signer
    app.state.passwords = Passwords(settings.argon2_time_cost, settings.argon2_memory_kib)
    app.state.worker = None
    app.state.vapid_public_key = vapid_public
    _error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    app.openapi = _openapi_with_errors(app)  # type: ignore[method-assign]
    static = files("calhamer.server") / "static"
    _api_browser(app)
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_middleware(SessionCookieMiddleware, secure=settings.secure_cookies,
                       max_age=settings.session_max_age)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    return app


def app_from_env() -> FastAPI:
    """The app as the environment configures it: what each process of ``calhamer serve
    --workers N`` makes (uvicorn imports this factory in every process)."""
    return create_app(Settings.from_env())


def _version() -> str:
    from calhamer import __version__

    return __version__


# -- error answers: JSON under /api, pages elsewhere ---------------------------------------------


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api")


def _error(request: Request, status: int, message: str,
           headers: Mapping[str, str] | None = None) -> Response:
    if _is_api(request):
        return JSONResponse(ErrorOut(detail=message).model_dump(), status_code=status,
                            headers=dict(headers or {}))
    return render_error(request, status, message, headers=dict(headers or {}),
                        context=_page_error_context(request, status))


def _page_error_context(request: Request, status: int) -> dict[str, Any]:
    """What an error page about an action in a game adds: the way back to the game, and the
    text the player typed (orders, bids, a message), which the route left in
    ``request.state.typed``, so that nothing typed is lost.

    Only for 400 and 409, which only someone who may act in the game gets (the game's routes
    answer everyone else 404 first): a 404 page must not differ between a hidden game and
    none at all."""
    game_id = request.path_params.get("game_id")
    if status not in (400, 409) or not isinstance(game_id, str):
        return {}
    return {"back": f"/games/{game_id}", "typed": getattr(request.state, "typed", None)}


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
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # Starlette answers from the first route whose path matched, which lists its own
            # methods only: a path served by several routes takes all of theirs.
            allowed = allowed_methods(app, request.scope)
            headers["Allow"] = ", ".join(allowed)
            message = f"this path takes {', '.join(allowed)}, not {request.method}"
        return _error(request, exc.status_code, message, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        pending = request.scope.get(PENDING_KEY)
        if isinstance(pending, PendingViewer):
            # The route would have settled who is asking before reading the body: a stranger
            # gets the 401 or 404 that ApiViewer gives, not a word about the body.
            try:
                await run_in_threadpool(_settle, request.app.state.db, pending)
            except AuthError as refused:
                return await auth_error(request, refused)
            except NotFound:
                return _error(request, 404, NOT_FOUND)
        problems = []
        for error in exc.errors():
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body")
            problems.append(ProblemOut(loc=where, msg=str(error.get("msg", "invalid"))))
        summary = "; ".join(f"{p.loc}: {p.msg}" if p.loc else p.msg for p in problems[:5])
        if _is_api(request):
            body = ValidationErrorOut(detail=summary, errors=problems)
            return JSONResponse(body.model_dump(), status_code=422)
        return render_error(request, 400, summary, context=_page_error_context(request, 400))


def allowed_methods(app: FastAPI, scope: Scope) -> list[str]:
    """Every method the routes of ``scope``'s path take (HEAD with GET), sorted."""
    methods: set[str] = set()
    for route in _plain_routes(app.router.routes):
        match, _ = route.matches({**scope, "type": "http"})
        if match != Match.NONE and route.methods:
            methods |= route.methods
    return sorted(methods)


def _plain_routes(routes: Iterable[BaseRoute]) -> Iterator[Route]:
    """The app's routes, those of the routers it includes among them (the routers are
    included without a prefix: their routes' paths are whole)."""
    for route in routes:
        if isinstance(route, Route):
            yield route
        elif hasattr(route, "original_router"):  # a router included in the app (FastAPI)
            yield from _plain_routes(route.original_router.routes)


def _settle(db: Database, pending: PendingViewer) -> None:
    with db.session() as session:
        pending.resolve(session)


# -- the OpenAPI schema: each route's error answers ------------------------------------------------

# Answers any API route can give: the body-size middleware's and the router's.
_EVERY_ROUTE = {
    400: "A wrong value (the sentence says which, and why), or a Content-Length header that is "
         "not a number.",
    405: "The path does not take this method.",
    413: "The request body is over the size limit (64 KiB).",
}
# 409, "not now", by route: the request is understood but the game's state refuses it.
_NOT_NOW: dict[tuple[str, str], str] = {
    ("POST", "/api/users"): "The user name is taken.",
    ("POST", "/api/join"): "The power has been taken, you already play another power of the "
                           "game, or the game is over.",
    ("POST", "/api/games/{game_id}/control"): "`phase` is no longer the phase being played "
        "(it has been adjudicated meanwhile: nothing was done), the game is over, or the "
        "action does not fit (already paused, not paused, no deadline to extend).",
    ("PUT", "/api/games/{game_id}/orders"): "`phase` is not the phase being played (it has "
        "been adjudicated meanwhile: nothing was saved), or the game is over.",
    ("POST", "/api/games/{game_id}/ready"): "`phase` is not the phase being played, or the "
        "game is over.",
    ("PUT", "/api/games/{game_id}/bids"): "`phase` is not the phase being played, it is not a "
        "movement phase, the variant takes no bids, or the game is over.",
    ("POST", "/api/games/{game_id}/messages"): "The game is over, or its press setting does "
        "not allow this message.",
}
# 429, "too many", by route: the limits kept in the database (accounts.py). A route may also
# declare its own error answers (``responses=`` on its decorator): they are kept, with these
# bodies.
_TOO_MANY: dict[tuple[str, str], str] = {
    ("POST", "/api/users"): "Too many sign-ups from your address lately; `Retry-After` says "
                            "in how many seconds to try again.",
    ("POST", "/api/sessions"): "Too many failed logins for the user name or from your "
                               "address lately; `Retry-After` says in how many seconds to try "
                               "again (no password is checked meanwhile).",
}
_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before trying again.",
                                "schema": {"type": "integer", "minimum": 1}}}
# 404 from routes that name no game: what they cannot find.
_NOT_FOUND: dict[tuple[str, str], str] = {
    ("POST", "/api/join"): "No such invitation (or it has been replaced).",
}
_HIDDEN = ("No such game, or one you have no part in (both answer alike), or nothing of "
           "that name in it.")


def _dependency_calls(dependant: Dependant) -> set[Callable[..., Any]]:
    calls: set[Callable[..., Any]] = set()
    for sub in dependant.dependencies:
        if sub.call is not None:
            calls.add(sub.call)
        calls |= _dependency_calls(sub)
    return calls


def error_answers(route: APIRoute) -> dict[int, str]:
    """The error answers ``route`` can give, each with when (all ``ErrorOut`` bodies, but
    422's ``ValidationErrorOut``). Read from its dependencies (a token, a game) and the
    tables above (what the service refuses as "not now")."""
    calls = _dependency_calls(route.dependant)
    answers = dict(_EVERY_ROUTE)
    for method in route.methods or ():
        key = (method, route.path)
        if api_user in calls or pending_api_viewer in calls:
            answers[401] = "No token, or one that is expired, forged or logged out."
        elif optional_api_user in calls:
            answers[401] = "A token that is expired, forged or logged out (send none instead)."
        if api_viewer in calls or pending_api_viewer in calls:
            answers[404] = _HIDDEN
        elif key in _NOT_FOUND:
            answers[404] = _NOT_FOUND[key]
        if key in _NOT_NOW:
            answers[409] = _NOT_NOW[key]
        if key in _TOO_MANY:
            answers[429] = _TOO_MANY[key]
    for status, declared in (route.responses or {}).items():
        if str(status).isdigit() and int(status) >= 400:
            answers.setdefault(int(status), str(declared.get("description", "Refused.")))
    if route.body_field is not None:
        answers[422] = "The body does not have the documented shape; `errors` says where."
    elif any(_checked_parameter(f) for f in route.dependant.path_params) or any(
            _checked_parameter(f) or f.field_info.is_required()  # a missing one is refused
            for f in route.dependant.query_params):
        answers[422] = "A parameter is not of the documented form; `errors` says which."
    return dict(sorted(answers.items()))


def _checked_parameter(field: Any) -> bool:
    """Whether a path or query parameter can be refused (422): one that is not plain text,
    or has a constraint of its own."""
    info = field.field_info
    return info.annotation is not str or bool(info.metadata)


def _openapi_with_errors(app: FastAPI) -> Callable[[], dict[str, Any]]:
    """``app.openapi``: FastAPI's schema, with each route's error answers and their real
    bodies (FastAPI would document 422 as its own list-of-errors model, and nothing else)."""
    routes = {(method, route.path): route for router in ROUTERS for route in router.routes
              if isinstance(route, APIRoute) and route.include_in_schema
              for method in route.methods or ()}

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = FastAPI.openapi(app)
        refs, definitions = models_json_schema(
            [(ErrorOut, "serialization"), (ValidationErrorOut, "serialization")],
            ref_template="#/components/schemas/{model}",
        )
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components.pop("HTTPValidationError", None)
        components.pop("ValidationError", None)
        components.update(definitions.get("$defs", {}))
        error_ref = refs[(ErrorOut, "serialization")]
        invalid_ref = refs[(ValidationErrorOut, "serialization")]
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                route = routes.get((method.upper(), path))
                if route is None:
                    continue
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                for status, when in error_answers(route).items():
                    body = invalid_ref if status == 422 else error_ref
                    responses[str(status)] = {
                        "description": when,
                        "content": {"application/json": {"schema": body}},
                        **({"headers": _RETRY_AFTER} if status == 429 else {}),
                    }
        return schema

    return openapi


# -- /docs: the API browser, served from this server ----------------------------------------------

_DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>calhamer API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon.png">
</head>
<body>
<div id="swagger-ui" data-openapi="/openapi.json"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/static/docs.js"></script>
</body>
</html>
"""


def _api_browser(app: FastAPI) -> None:
    """``/docs``: Swagger UI browsing ``/openapi.json``, its files served from this server
    (the ``fastapi-offline`` package ships them) and started by ``static/docs.js``, so that
    the page loads nothing from another site and runs under the pages' CSP."""
    from fastapi.responses import HTMLResponse

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(_DOCS_PAGE)

    assets = files("fastapi_offline") / "static"
    app.mount("/docs/assets", StaticFiles(directory=str(assets)), name="docs-assets")


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
    site (an invitation link is a secret in the address). Pages, /docs included, may load only
    this site's own scripts and styles, and run no inline script."""

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
        extra = [*self.HEADERS, self.CSP]

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
