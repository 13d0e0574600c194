"""The new-game form offers every shipped board with a thumbnail (issue 28, "Done when" 3;
issue 30, item 4): each variant in the gallery with its picture, description and size; each
shipped board (godip's and DPjudge's included) in the "board with rule modules" list with its
size and picture; thumbnails served as small SVGs from their own route; a board with no
picture said so in words; a game composed of modules on a godip board created through the
form."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

import pytest
from test_new_game_modules import first_phase, game_rows, post_form
from test_pages import Browser

from calhamer.boards import shipped_boards
from calhamer.server.services import boards
from calhamer.server.services.games import variant_groups

SVG_NS = "{http://www.w3.org/2000/svg}"


def _gallery(page: str) -> dict[str, str]:
    block = page.split('<details id="boards-gallery">')[1].split("</details>")[0]
    items = re.findall(r'<li data-variant="([^"]+)"(.*?)</li>', block, re.S)
    return {name: body for name, body in items}


def test_the_gallery_shows_every_offered_variant_with_picture_description_and_size(client):
    page = client.get("/").text
    gallery = _gallery(page)
    offered = [name for _, options in variant_groups() for name, _ in options]
    assert list(gallery) == offered
    assert {"standard", "hundred", "youngstown-redux", "dpjudge-youngstown",
            "twenty-twenty"} <= set(gallery)
    for preview in boards.variant_previews():
        body = html.unescape(gallery[preview.name])
        # Every shipped board has a drawing, so every variant has its thumbnail.
        assert f'src="/thumbnails/variant/{preview.name}.svg"' in body, preview.name
        assert preview.size in body and preview.title in body
        assert preview.description in body
    hundred = html.unescape(gallery["hundred"])
    assert "3 powers, 41 provinces, 17 centres." in hundred
    assert "Hundred Years' War" in hundred


def test_the_board_list_offers_every_shipped_board_with_size_and_picture(client):
    page = client.get("/").text
    select = page.split('<select name="board">')[1].split("</select>")[0]
    listed = re.findall(r'<option value="([^"]+)"', select)
    assert listed == shipped_boards()
    assert {"godip/hundred", "dpjudge/youngstown", "godip/twenty-twenty"} <= set(listed)
    assert "Youngstown (DPjudge) (10 powers, 180 provinces, 72 centres)" in html.unescape(select)
    pictures = dict(re.findall(r'<li data-board="([^"]+)" data-thumb="([^"]*)"', page))
    assert sorted(pictures) == sorted(shipped_boards())
    assert all(pictures[name] == f"/thumbnails/board/{name}.svg" for name in pictures)


@pytest.mark.parametrize("url", ["/thumbnails/variant/youngstown-redux.svg",
                                 "/thumbnails/variant/standard.svg",
                                 "/thumbnails/board/dpjudge/youngstown.svg",
                                 "/thumbnails/board/godip/pure.svg"])
def test_thumbnails_are_small_svgs_of_the_board_at_its_start(client, url):
    r = client.get(url)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert "max-age" in r.headers["cache-control"]
    root = ET.fromstring(r.text)
    assert root.get("width") == "240"
    assert len(r.content) < 60_000
    paths = root.findall(f"{SVG_NS}path")
    dots = root.findall(f"{SVG_NS}circle")
    assert len(paths) > 5 and dots  # provinces, centres and units
    assert client.get(url).text == r.text  # made once, the same each time


def test_thumbnails_draw_the_variants_own_start(client):
    """Chaos begins with no units; Youngstown Redux with its powers' units in their colours."""
    chaos = ET.fromstring(client.get("/thumbnails/variant/chaos.svg").text)
    young = ET.fromstring(client.get("/thumbnails/variant/youngstown-redux.svg").text)
    # Chaos: only the centres' white dots.
    assert {c.get("fill") for c in chaos.findall(f"{SVG_NS}circle")} == {"#ffffff"}
    assert len({c.get("fill") for c in young.findall(f"{SVG_NS}circle")}) > 5


@pytest.mark.parametrize("url", ["/thumbnails/variant/nonesuch.svg",
                                 "/thumbnails/board/godip/nonesuch.svg",
                                 "/thumbnails/board/../standard.svg",
                                 "/thumbnails/board/standard.toml",
                                 "/thumbnails/variant/standard+fog.svg"])
def test_anything_else_is_not_found(client, url):
    r = client.get(url)
    assert r.status_code == 404
    assert "Traceback" not in r.text


def test_a_board_without_a_picture_is_said_so_plainly(client, monkeypatch):
    """A board with no drawing (none shipped has one: a stand-in) gets no thumbnail: the form
    says so in words instead."""
    real = boards.variant_previews()
    plain = tuple(p if p.name != "hundred" else
                  boards.Preview(p.name, p.title, p.description, p.size, None) for p in real)
    monkeypatch.setattr(boards, "variant_previews", lambda: plain)
    boards.variant_thumbnail.cache_clear()
    try:
        page = client.get("/").text
        body = html.unescape(_gallery(page)["hundred"])
        assert "No picture: this board has no drawing yet." in body and "<img" not in body
        assert client.get("/thumbnails/variant/hundred.svg").status_code == 404
    finally:
        boards.variant_thumbnail.cache_clear()


def test_a_game_is_composed_of_modules_on_a_godip_board(app, database):
    gm = Browser(app)
    gm.get("/")
    r = post_form(gm, {"source": "modules", "board": "godip/hundred"}, modules=["fog"])
    assert r.status_code == 200, r.text
    [game] = game_rows(database)
    assert game.variant == "godip/hundred+fog"
    position = first_phase(database, game.id)
    assert position["phase"] == "Y1425M"


def test_every_thumbnail_the_form_shows_is_served(client):
    """Every picture the form links to, each variant's and each board's, is a small SVG of
    that board: as many provinces drawn as the board has."""
    from calhamer.map import load_map
    from calhamer.variants import find_variant

    page = client.get("/").text
    variants = re.findall(r'src="(/thumbnails/variant/[^"]+\.svg)"', page)
    board_urls = re.findall(r'data-thumb="(/thumbnails/board/[^"]+\.svg)"', page)
    assert len(variants) == len(boards.variant_previews())
    assert len(board_urls) == len(shipped_boards())
    for url in variants + board_urls:
        r = client.get(url)
        assert r.status_code == 200, url
        root = ET.fromstring(r.text)
        name = url.rsplit("/", 1)[1].removesuffix(".svg") if "/variant/" in url else \
            url.removeprefix("/thumbnails/board/").removesuffix(".svg")
        m = find_variant(name).board() if "/variant/" in url else load_map(name)
        assert len(root.findall(f"{SVG_NS}path")) >= len(m.provinces), url
