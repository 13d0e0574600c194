"""The pictures are the same, byte for byte, as before the SVG writer was made faster.

Each picture below is kept as the SHA-256 of its text as the earlier writer wrote it (every
element built as a tree, then written). The faster writer keeps pre-written pieces of each
board (its provinces' outlines, its labels) and fills in what changes; these pictures must
not change at all, over every variant's start, a crowded adjudicated phase, orders not yet
adjudicated, each Kriegsplomacy player's view, a mask, other colours and text that must be
escaped.

When a picture is meant to change, print the new digests with
``python tests/test_render_identity.py`` and replace ``DIGESTS``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from calhamer import adjudicate
from calhamer.formats import position_from_json
from calhamer.game import Game, PhaseRecord
from calhamer.render import render_svg
from calhamer.render.svg import Mask
from calhamer.variants import all_variants, shipped_files
from calhamer.views import known_position, power_view

# A mid-game position with an order for every unit, shared with the render benchmark.
MID_GAME = json.loads(
    (Path(__file__).resolve().parents[1] / "examples" / "fall-1903.json").read_text())
ORDERS: dict[str, list[str]] = MID_GAME.pop("orders")


def pictures() -> dict[str, Callable[[], str]]:
    """Every picture of the corpus, by name (drawn when called)."""
    out: dict[str, Callable[[], str]] = {}
    # The variants built for calhamer, drawn on their own geometry. The boards shipped as
    # files (godip's) are drawn as schematics until they have geometry of their own; their
    # pictures join the corpus then.
    for variant in (v for v in all_variants() if v.name not in shipped_files()):
        out[f"start {variant.name}"] = lambda v=variant.name: render_svg(Game.new(v).current)
    position, _orders, _rules = position_from_json(MID_GAME)
    outcome = adjudicate(position, ORDERS)
    out["F1903M adjudicated"] = lambda: render_svg(outcome=outcome)
    out["F1903M retreats"] = lambda: render_svg(outcome.next)
    out["F1903M orders"] = lambda: render_svg(position, orders=ORDERS)
    out["F1903M small, no legend"] = lambda: render_svg(outcome=outcome, size=640,
                                                       legend=False)
    out["F1903M no orders"] = lambda: render_svg(outcome=outcome, show_orders=False)
    out["F1903M colours and a title to escape"] = lambda: render_svg(
        outcome=outcome, colors={"FRANCE": "#123456", "sea": "#a0c0ff"},
        title='Fall "1903" <B & C>')
    out["F1903M masked"] = lambda: render_svg(
        position, orders=ORDERS, mask=lambda province: province % 3 != 0)
    out["F1903M known to France"] = lambda: render_svg(
        known_position(position, "FRANCE"), mask=Mask())
    game = Game.new("kriegsplomacy")
    start = game.current
    lines = {p: [f"{'A' if u.type.name == 'ARMY' else 'F'} {start.map.loc_name(u.loc)} H"
                 for u in start.units.values() if u.power == p] for p in start.powers()}
    record = game.history[-1]
    fog = Game(game.variant, game.rules, [PhaseRecord(record.phase, record.document, lines)])
    fog_outcome = fog.process()
    for power in start.map.power_codes:
        out[f"kriegsplomacy view {power}"] = lambda p=power: render_svg(
            view=power_view(fog_outcome, p))
    return out


# The digests of the pictures as the earlier writer drew them.
DIGESTS: dict[str, str] = {
    "F1903M adjudicated":
        "45b81918bebc22178a9035587b03de9d05951862fbb696ce141010cba0f38d22",
    "F1903M colours and a title to escape":
        "947e72079747d0e4c9011cf22fc9d173017b7f35063cfb7ab8ca7520c50424b1",
    "F1903M known to France":
        "a7dc96670f2f9ec1190e07e1d875ff129762afd00104b6196889b9723cac546e",
    "F1903M masked":
        "05b0780621216951efb0ec5a08ef2431cbbbaa9a1cce3cbf716675518058dd2c",
    "F1903M no orders":
        "a79ca6642c38fe93ca16a04d5d9adb79e75542c4efee5c0dca0f9a5d4be5a7b1",
    "F1903M orders":
        "d97ffbaa0c9e3cbfd2eadea4a754b914210200be6ae38940dd565d69deddad18",
    "F1903M retreats":
        "fc578b0b46be9fe0048fd2afd43190ad40f9ed68d0d1bf6a8bfcccdf0ae3e2d6",
    "F1903M small, no legend":
        "66800578858bca8ccd507c6847e63bf5433057972eeef48a4e7687aa74351c5d",
    "kriegsplomacy view AUSTRIA":
        "e17bc08b44ac1c2d6d2a5dab1de94f1983d104d68883993e948b72f54917d42d",
    "kriegsplomacy view ENGLAND":
        "197f804bcc3d34b21da4352c2e31e2132cdb2422928b6d0db01b0643a40563e8",
    "kriegsplomacy view FRANCE":
        "aca78110b5ee19f321bcb692f46f4a5229f2a1702badfd1927499ef6ec940f88",
    "kriegsplomacy view GERMANY":
        "34518ed6936c3bb1fb1a0a311746d090318e290a90ad325a430cc0042c7564d7",
    "kriegsplomacy view ITALY":
        "005d7e2deef99be36c5c10cb723cb6e61e721110d5548d5e3c2ba93c4d8a8b84",
    "kriegsplomacy view RUSSIA":
        "060d04bcdfab01f7136a7049525d5987587e88d3fa688a9c9541090e66e1e66a",
    "kriegsplomacy view TURKEY":
        "c7046f917cb8f959ac25076761b2c8ee0b34150b3fbb575f241cb36dbdce81a4",
    "start arpiesse":
        "f884c381cd0c80d5a9696a6e3f27e194ac7056170532cfe1fd33eec3d88a6be6",
    "start arpiesse-exchange":
        "f884c381cd0c80d5a9696a6e3f27e194ac7056170532cfe1fd33eec3d88a6be6",
    "start arpiesse-fog":
        "f884c381cd0c80d5a9696a6e3f27e194ac7056170532cfe1fd33eec3d88a6be6",
    "start fog-dp":
        "84edfe866c256c68c22d305a17ad41fb5031121c131b52079bf141ba7465dab7",
    "start kriegsplomacy":
        "ef8e5efe37fb3528687177fe3143104dca13b5fd41c80947b8f256aa00eefc13",
    "start standard":
        "3da51d48edde5001e14185a02c94492fed1637f7f4fbd269fb9275e32b32cfda",
    "start standard-dp":
        "84edfe866c256c68c22d305a17ad41fb5031121c131b52079bf141ba7465dab7",
    "start sub-saharan-excerpt":
        "ed0d374736a15fb4c8bd6caf296699e4384148e8dabbca0168051cc3fcc9821b",
    "start superdiplomacy":
        "de483329bb2fb46468a7899d93ecf7c872c1ce9fc0e192ed8ec41dce29e5408a",
    "start superdiplomacy-dp":
        "de483329bb2fb46468a7899d93ecf7c872c1ce9fc0e192ed8ec41dce29e5408a",
    "start superdiplomacy-fog":
        "de483329bb2fb46468a7899d93ecf7c872c1ce9fc0e192ed8ec41dce29e5408a",
}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_the_picture_is_the_same_as_before(name: str) -> None:
    assert digest(pictures()[name]()) == DIGESTS[name]


def test_every_picture_of_the_corpus_has_a_digest() -> None:
    assert sorted(pictures()) == sorted(DIGESTS)


def test_a_picture_drawn_twice_is_the_same() -> None:
    """The pieces kept between pictures keep nothing of the picture before."""
    drawn = pictures()
    first = {name: drawn[name]() for name in drawn}
    again = {name: drawn[name]() for name in reversed(list(drawn))}
    assert first == again


if __name__ == "__main__":
    for name, draw in sorted(pictures().items()):
        print(f'    "{name}":\n        "{digest(draw())}",')
