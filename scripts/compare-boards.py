"""Compare two boards' facts: provinces, terrain, centres, homes, adjacency, start.

    python scripts/compare-boards.py A.toml B.toml          # two map files
    python scripts/compare-boards.py --dpjudge-godip        # DPjudge's boards and godip's

Both sides are calhamer map files read as plain TOML (a board whose file uses a feature this
calhamer lacks compares as well). ``--dpjudge-godip`` compares each board DPjudge and godip
both have: DPjudge's imported from its map file (``shared/reference/dpjudge/maps``) by
calhamer's importer, godip's from ``src/calhamer/maps/godip/`` (scripts/godip-boards.py), and
prints each difference as a line of Markdown, as docs/boards.md lists them. Provinces are
matched by code, then by name.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

# DPjudge's map -> godip's board (the file scripts/godip-boards.py writes), or calhamer's own.
PAIRS = {
    "standard": "src/calhamer/maps/standard.toml",
    "ancmed": "src/calhamer/maps/godip/ancient-mediterranean.toml",
    "canton": "src/calhamer/maps/godip/canton.toml",
    "chaos": "src/calhamer/maps/godip/chaos.toml",
    "crowded": "src/calhamer/maps/godip/classical-crowded.toml",
    "fleetrome": "src/calhamer/maps/godip/fleet-rome.toml",
    "hundred": "src/calhamer/maps/godip/hundred.toml",
    "pure": "src/calhamer/maps/godip/pure.toml",
    "sengoku": "src/calhamer/maps/godip/sengoku.toml",
    "youngstown": "src/calhamer/maps/godip/youngstown-redux.toml",
}


def _norm(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())


def _edges(board: dict[str, Any], kind: str) -> set[tuple[str, ...]]:
    """Undirected edges as sorted pairs, and one-way edges as (a, b, "->")."""
    out: set[tuple[str, ...]] = set()
    for a, targets in board.get(kind, {}).items():
        for b in targets.split():
            out.add(tuple(sorted((a, b))))
    for edge in board.get("oneway", {}).get(kind, []):
        a, b = edge.split()
        out.add((a, b, "->"))
    return out


def _neighbours(board: dict[str, Any], code: str, rename: dict[str, str]) -> frozenset[str]:
    out = set()
    for kind in ("army", "fleet"):
        for a, b in (e[:2] for e in _edges(board, kind)):
            a, b = a.split("/")[0], b.split("/")[0]
            if code in (a, b):
                out.add(rename.get(b if a == code else a, b if a == code else a))
    return frozenset(out)


def _matches(a: dict[str, Any], b: dict[str, Any]) -> dict[str, str]:
    """b's codes that name a's provinces under other codes: the same name, then a close name
    of the same terrain (Mid-Atlantic Ocean, Mid-Atlantic), then the same neighbours."""
    import difflib

    rename: dict[str, str] = {}
    pa, pb = a["provinces"], b["provinces"]
    names_a = {_norm(p["name"]): code for code, p in pa.items()}
    for code, p in pb.items():
        if code not in pa and _norm(p.get("name", "")) in names_a:
            rename[code] = names_a[_norm(p["name"])]

    def left() -> tuple[list[str], list[str]]:
        taken = set(pb) - set(rename) | set(rename.values())
        return ([c for c in pa if c not in taken],
                [c for c in pb if c not in pa and c not in rename])

    only_a, only_b = left()
    for code in only_b:
        name = _norm(pb[code].get("name", ""))
        close = [c for c in only_a if pa[c].get("type") == pb[code].get("type") and (
            difflib.SequenceMatcher(None, name, _norm(pa[c]["name"])).ratio() > 0.8
            or name.startswith(_norm(pa[c]["name"])) or _norm(pa[c]["name"]).startswith(name))]
        if len(close) == 1:
            rename[code] = close[0]
            only_a.remove(close[0])
    only_a, only_b = left()
    for code in only_b:
        mine = _neighbours(b, code, rename)
        same = [c for c in only_a if _neighbours(a, c, {}) == mine and mine]
        if len(same) == 1:
            rename[code] = same[0]
            only_a.remove(same[0])
    return rename


def _back(rename: dict[str, str], code: str) -> str:
    return next((old for old, new in rename.items() if new == code), code)


def _home(board: dict[str, Any], code: str, home: str | None) -> str | None:
    """Whose home a province is, by the power's name (the codes of two boards differ)."""
    for minor, entry in board.get("minor_powers", {}).items():
        if code in entry.get("centers", []):
            home = minor
    if home is None:
        return None
    entry = board.get("powers", {}).get(home) or board.get("minor_powers", {}).get(home, {})
    return str(entry.get("name", home))


def _units(board: dict[str, Any]) -> set[str]:
    found = {u for us in board.get("start", {}).get("units", {}).values() for u in us}
    return found | {u for m in board.get("minor_powers", {}).values() for u in m.get("units", [])}


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Every difference between boards ``a`` and ``b``, one line each (b's codes renamed to
    a's where the names match)."""
    rename = _matches(a, b)

    def r(loc: str) -> str:
        code, _, coast = loc.partition("/")
        code = rename.get(code, code)
        return f"{code}/{coast}" if coast else code

    provinces_b = {r(c): p for c, p in b["provinces"].items()}
    out = [f"{new} ({a['provinces'][new]['name']}) is {old} ({b['provinces'][old]['name']}) "
           "in the second" for old, new in sorted(rename.items(), key=lambda x: x[1])]
    for code in sorted(set(a["provinces"]) - set(provinces_b)):
        out.append(f"{code} ({a['provinces'][code]['name']}) only in the first")
    for code in sorted(set(provinces_b) - set(a["provinces"])):
        out.append(f"{code} ({provinces_b[code].get('name', code)}) only in the second")
    for code in sorted(set(a["provinces"]) & set(provinces_b)):
        pa, pb = a["provinces"][code], provinces_b[code]
        for key, default in (("type", "land"), ("sc", False), ("home", None), ("coasts", []),
                             ("convoys", False)):
            va, vb = pa.get(key, default), pb.get(key, default)
            if key == "home":
                va, vb = _home(a, code, va), _home(b, _back(rename, code), vb)
            if key == "coasts":
                va, vb = sorted(va), sorted(vb)
            if va != vb:
                out.append(f"{code} {key}: {va} / {vb}")
    for kind in ("army", "fleet"):
        ea = _edges(a, kind)
        eb = {tuple(r(x) if x != "->" else x for x in e) for e in _edges(b, kind)}
        eb = {tuple(sorted(e)) if len(e) == 2 else e for e in eb}
        for edge in sorted(ea - eb):
            out.append(f"{kind} {'-'.join(edge[:2])}{' (one way)' if len(edge) == 3 else ''} "
                       "only in the first")
        for edge in sorted(eb - ea):
            out.append(f"{kind} {'-'.join(edge[:2])}{' (one way)' if len(edge) == 3 else ''} "
                       "only in the second")
    units_a = _units(a)
    units_b = {f"{u[:2]}{r(u[2:])}" for u in _units(b)}
    for unit in sorted(units_a - units_b):
        out.append(f"start unit {unit} only in the first")
    for unit in sorted(units_b - units_a):
        out.append(f"start unit {unit} only in the second")
    va, vb = a["map"].get("victory_centers"), b["map"].get("victory_centers")
    if va != vb:
        out.append(f"victory centres: {va} / {vb}")
    return out


def dpjudge_godip() -> dict[str, list[str]]:
    """The differences of each board DPjudge and godip (or calhamer) both have."""
    from calhamer.boards.dpjudge import import_map

    sys.path.insert(0, str(ROOT / "scripts"))
    import importlib.util

    spec = importlib.util.spec_from_file_location("boards", ROOT / "scripts" /
                                                  "dpjudge-boards.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    reference = script.find_reference()
    out = {}
    for stem, other in PAIRS.items():
        path = ROOT / other
        if reference is None or not path.is_file():
            continue
        ours = import_map(reference / f"{stem}.map").board
        out[stem] = compare(ours, tomllib.loads(path.read_text(encoding="utf-8")))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", metavar="BOARD")
    parser.add_argument("--dpjudge-godip", action="store_true")
    args = parser.parse_args()
    if args.dpjudge_godip:
        for stem, lines in dpjudge_godip().items():
            print(f"\n{stem} / {PAIRS[stem]}: {len(lines)} differences")
            for line in lines:
                print(f"- {line}")
        return 0
    if len(args.files) != 2:
        parser.error("give two map files, or --dpjudge-godip")
    a, b = (tomllib.loads(Path(f).read_text(encoding="utf-8")) for f in args.files)
    for line in compare(a, b):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
