"""Finding 3 of issue 27: the registry's caches of variants found by name are bounded.

A web form may send any number of distinct composed texts (``standard-dp+neutrals?dp_cap=N``
for every N); each used to be kept for ever. The caches now forget the least recently used
one beyond a fixed size, and the shipped variants (presets included) are always found, the
same instance each time.
"""

from __future__ import annotations

import gc
import weakref

import pytest

from calhamer import variants
from calhamer.recent import RecentlyUsed
from calhamer.variants import composition, find_variant


def test_finding3_the_variant_cache_stays_bounded_after_many_distinct_composed_texts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The caches as shipped are bounded ones; here they are made small, so that a few hundred
    # texts (each takes some milliseconds to compose) overflow them many times.
    assert isinstance(variants._FOUND, RecentlyUsed)
    assert variants._FOUND.size == variants.FOUND_CACHE_SIZE
    assert isinstance(composition._COMPOSED, RecentlyUsed)
    assert composition._COMPOSED.size == composition.COMPOSED_CACHE_SIZE
    monkeypatch.setattr(variants, "_FOUND", RecentlyUsed(40))
    monkeypatch.setattr(composition, "_COMPOSED", RecentlyUsed(20))
    shipped = {name: find_variant(name) for name in ("standard", "kriegsplomacy", "fog-dp")}
    preset_text = "standard-dp+fog+neutrals"  # the fog-dp preset, asked for by its text
    first = find_variant("standard-dp+neutrals?dp_cap=1")
    forgotten = weakref.ref(first)
    del first
    for cap in range(2, 150):
        assert find_variant(f"standard-dp+neutrals?dp_cap={cap}").dp_cap == cap
    assert len(variants._FOUND) == 40 and len(composition._COMPOSED) == 20
    gc.collect()
    assert forgotten() is None  # nothing else kept it either
    for name, variant in shipped.items():
        assert find_variant(name) is variant
    assert find_variant(preset_text) is shipped["fog-dp"]
    again = find_variant("standard-dp+neutrals?dp_cap=1")  # worked out again when asked
    assert again.name == "standard-dp+neutrals?dp_cap=1" and again.dp_cap == 1


def test_the_cache_forgets_the_least_recently_used() -> None:
    cache: RecentlyUsed[str, int] = RecentlyUsed(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # now the most recent
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    assert len(cache) == 2
