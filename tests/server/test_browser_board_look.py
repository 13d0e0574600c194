"""A drawn board's picture looked at in Chromium at 1000 px (issue 28, item 3): large boards
(DPjudge's Youngstown, 184 provinces; godip's Twenty Twenty, 215) and small ones, as
``calhamer render --size 1000`` and the web judge draw them.

What the browser lays out, with its own fonts, is measured: the picture is 1000 px wide and
the page no wider; every province is a shape of its own, large enough to point at; every
label, unit and supply centre stands on its own province (what lies under its middle), none
overlaps another, and labels and units keep a size that can be read.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser import chromium  # noqa: F401

from calhamer.map import load_map
from calhamer.position import Position
from calhamer.render import render_svg

WIDTH = 1000

LOOK = """() => {
  const svg = document.querySelector('svg');
  const box = e => e.getBoundingClientRect();
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
                            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const labels = Array.from(svg.querySelectorAll('#labels text'));
  const units = Array.from(svg.querySelectorAll('#units > g[id^="unit-"]'));
  const centres = Array.from(svg.querySelectorAll('g[id^="sc-"]'));
  const provinces = Array.from(svg.querySelectorAll('path[id^="prov-"]'));
  const pieces = [...labels.map(e => ['label ' + e.textContent, box(e)]),
                  ...units.map(e => [e.id, box(e)]), ...centres.map(e => [e.id, box(e)])];
  const overlaps = [];
  for (let i = 0; i < pieces.length; i++)
    for (let j = i + 1; j < pieces.length; j++)
      if (overlap(pieces[i][1], pieces[j][1])) overlaps.push(pieces[i][0] + ' / ' + pieces[j][0]);
  // The province under a piece's middle (labels and units let the pointer through).
  const under = e => {
    const r = box(e);
    const hit = document.elementsFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2)
      .find(h => h.id && h.id.startsWith('prov-'));
    return hit ? hit.id.slice(5).toUpperCase() : null;
  };
  const misplaced = [];
  const check = (e, name, code) => {
    const got = under(e);
    if (got !== code.toUpperCase()) misplaced.push(name + ' on ' + got);
  };
  for (const e of labels) check(e, 'label ' + e.textContent, e.textContent);
  for (const e of units) check(e, e.id, e.id.slice(5).split('/')[0]);
  for (const e of centres) check(e, e.id, e.id.slice(3));
  return {
    width: box(svg).width, height: box(svg).height,
    pageWidth: document.documentElement.scrollWidth,
    provinces: provinces.length, labels: labels.length, units: units.length,
    centres: centres.length,
    smallest: Math.min(...provinces.map(e => Math.min(box(e).width, box(e).height))),
    labelHeight: Math.min(...labels.map(e => box(e).height)),
    unitWidth: Math.min(...units.map(e => box(e).width)),
    overlaps: overlaps, misplaced: misplaced,
  };
}"""


def _look(browser: Any, board: str) -> tuple[dict[str, Any], Any]:
    svg = render_svg(Position.initial(board), size=WIDTH)
    # Tall enough to hold the whole picture: what lies under a point is only found on screen.
    page = browser.new_context(viewport={"width": WIDTH, "height": 2400}).new_page()
    page.set_content(f"<!doctype html><html><body style='margin:0'>{svg}</body></html>")
    return page.evaluate(LOOK), page


@pytest.mark.parametrize(("board", "label_px", "unit_px", "province_px"), [
    ("dpjudge/youngstown", 4.5, 8.0, 12.0),  # 184 provinces
    ("godip/twenty-twenty", 3.5, 6.0, 8.0),  # 215, the largest shipped
    ("dpjudge/hundred", 12.0, 20.0, 30.0),  # 41
    ("godip/north-sea-wars", 10.0, 16.0, 30.0),  # 31
])
def test_a_drawn_board_looks_right_in_chromium_at_1000_px(chromium, board,  # noqa: F811
                                                          label_px, unit_px, province_px):
    m = load_map(board)
    start = Position.initial(board)
    found, page = _look(chromium, board)
    assert found["width"] == pytest.approx(WIDTH, abs=0.5), found["width"]
    assert found["pageWidth"] <= WIDTH
    # Every province drawn, and labelled, once; the start's units and every centre.
    assert found["provinces"] == found["labels"] == len(m.provinces)
    assert found["units"] == len(start.units)
    assert found["centres"] == sum(1 for p in m.provinces if p.is_supply_center)
    assert found["overlaps"] == [], found["overlaps"][:10]
    assert found["misplaced"] == [], found["misplaced"][:10]
    assert found["smallest"] >= province_px, found["smallest"]
    assert found["labelHeight"] >= label_px, found["labelHeight"]
    assert found["unitWidth"] >= unit_px, found["unitWidth"]
    # And it is a picture: the screenshot is not one flat colour.
    shot = page.screenshot(clip={"x": 0, "y": 0, "width": WIDTH, "height": found["height"]})
    assert len(shot) > 20_000
