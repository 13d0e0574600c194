"""Rendering the HTML pages (Jinja2 templates in ``templates/``, autoescaped)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from importlib.resources import files
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from calhamer.position import Phase
from calhamer.server.models import GameRow
from calhamer.server.services.common import phase_name

templates = Jinja2Templates(directory=str(files("calhamer.server") / "templates"))


def _phase_name(code: str, game: GameRow | None = None) -> str:
    """The ``phase_name`` filter: a phase code named by the game's board's calendar (the
    usual names without a game)."""
    if game is not None:
        return phase_name(game, code)
    try:
        return Phase.parse(code).name
    except Exception:
        return code


def _when(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M UTC")


def _until(value: datetime | None, now: datetime) -> str:
    """``in 3 h 20 min``, ``in 45 s``, ``now``."""
    if value is None:
        return ""
    seconds = int((value - now).total_seconds())
    if seconds <= 0:
        return "now"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "",
             f"{minutes} min" if minutes and not days else "",
             f"{secs} s" if not (days or hours or minutes) else ""]
    return "in " + " ".join(p for p in parts if p)


def _power_title(code: str) -> str:
    return code.title() if code != "GM" else "Gamemaster"


templates.env.filters["phase_name"] = _phase_name
templates.env.filters["when"] = _when
templates.env.filters["power"] = _power_title
templates.env.globals["until"] = _until


def render(request: Request, name: str, context: dict[str, Any], status: int = 200,
           headers: dict[str, str] | None = None) -> HTMLResponse:
    """A page; ``context`` should hold ``page`` (the PageSession) when there is one."""
    page = context.get("page")
    base = {
        "user": getattr(page, "user", None),
        "csrf": getattr(page, "csrf", ""),
        "now": request.app.state.settings.clock(),
    }
    return templates.TemplateResponse(request, name, {**base, **context},
                                      status_code=status, headers=headers)


def render_error(request: Request, status: int, message: str,
                 headers: dict[str, str] | None = None,
                 context: dict[str, Any] | None = None) -> HTMLResponse:
    """An error page; ``context`` may add ``back`` (the page to go back to) and ``typed``
    (a :class:`Typed`: what the player typed, given back to them)."""
    titles = {400: "That did not work", 401: "Please log in again", 403: "Not allowed",
              404: "Not found", 409: "Not now", 413: "Too large", 422: "That did not work",
              429: "Not so fast"}
    return render(request, "error.html",
                  {"status": status, "title": titles.get(status, "Error"), "message": message,
                   **(context or {})},
                  status=status, headers=headers)


@dataclass(frozen=True)
class Typed:
    """Text a player typed into a form of a game page, for the error page to give back in a
    form of its own (``action``: where it is sent; ``fields``: the other fields it carries,
    the CSRF token among them; ``retry``: whether sending it again can work)."""

    action: str
    name: str  # the text field's name
    label: str
    text: str
    button: str
    fields: tuple[tuple[str, str], ...] = ()
    note: str = ""
    retry: bool = True


def redirect(url: str) -> RedirectResponse:
    """After a form POST: see the result with a GET (303 See Other)."""
    return RedirectResponse(url, status_code=303)
