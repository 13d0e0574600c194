"""Thumbnails of the boards the new-game form offers: small SVGs, made once per process.

``GET /thumbnails/variant/<variant>.svg`` is a variant's board at its start;
``GET /thumbnails/board/<board>.svg`` (``godip/hundred``) a shipped board's. Anything else,
and a board with no picture, is the same 404. They hold nothing of any game, so anyone may
fetch them and browsers may keep them for a day.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from calhamer.server.services import boards
from calhamer.server.services.common import NotFound

api = APIRouter()  # no API routes: the thumbnails are pictures for pages
pages = APIRouter(include_in_schema=False)

SVG = "image/svg+xml"
_CACHED = {"Cache-Control": "public, max-age=86400"}


@pages.get("/thumbnails/variant/{name}.svg")
def variant_thumbnail(name: str) -> Response:
    svg = boards.variant_thumbnail(name)
    if svg is None:
        raise NotFound()
    return Response(svg, media_type=SVG, headers=_CACHED)


@pages.get("/thumbnails/board/{name:path}")
def board_thumbnail(name: str) -> Response:
    svg = boards.board_thumbnail(name.removesuffix(".svg")) if name.endswith(".svg") else None
    if svg is None:
        raise NotFound()
    return Response(svg, media_type=SVG, headers=_CACHED)
