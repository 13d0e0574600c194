"""The inline map on a player's game page (issue 29, item 4), in Chromium on a desktop and a
phone: the legend's text does not overlap, and the picture's ids do not collide with the
page's own sections."""

from __future__ import annotations

from browser import chromium, live_server, standard_table  # noqa: F401
from map_sizes import SIZES

OVERLAPS = """() => {
  const texts = Array.from(document.querySelectorAll('#map svg #map-legend text'))
    .map(t => t.getBoundingClientRect()).filter(r => r.width > 0);
  const hits = [];
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    const a = texts[i], b = texts[j];
    const dx = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const dy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (dx > 0.5 && dy > 0.5) hits.push([i, j]);
  }
  return {count: texts.length, hits: hits};
}"""

DUPLICATES = """() => {
  const seen = {}, twice = [];
  document.querySelectorAll('[id]').forEach(e => {
    if (seen[e.id]) twice.push(e.id); seen[e.id] = true;
  });
  return twice;
}"""


@SIZES
def test_the_legend_does_not_overlap_and_ids_are_the_pages_own(live_server, chromium,  # noqa: F811
                                                                 screen):
    from playwright.sync_api import expect

    table = standard_table(live_server, powers=("FRANCE", "GERMANY", "ITALY", "TURKEY"))
    france = table.browse(chromium, "FRANCE", **screen)
    expect(france.locator("#map svg")).to_be_visible()
    found = france.evaluate(OVERLAPS)
    assert found["count"] >= 7, found  # the heading and the powers' entries
    assert found["hits"] == [], found
    size = france.locator("#map svg .lg").first.evaluate("e => getComputedStyle(e).fontSize")
    assert size == "10px", size
    assert france.evaluate(DUPLICATES) == []
    # The page's sections keep their ids; the picture's are its own.
    assert france.evaluate("document.getElementById('board').tagName") == "SECTION"
    assert france.evaluate("document.getElementById('orders').tagName") == "SECTION"
    for part in ("board", "units", "legend"):
        assert france.locator(f"#map svg #map-{part}").count() == 1, part
    # The impassable land's hatching still finds its pattern under the new name.
    assert france.locator("#map svg [fill='url(#impassable)']").count() == 0
