"""Write the JSON Schemas of calhamer's documents into docs/schemas/.

    python scripts/write-schemas.py           # write them
    python scripts/write-schemas.py --check   # exit 1 if the committed files are stale

The schemas come from the pydantic models in ``calhamer.documents`` and from each shipped
variant's state model (``Variant.state``), and the variant file's (TOML, read as the JSON it
parses to: ``calhamer.documents.variants.VariantFile``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from calhamer.documents.schemas import all_schemas, dumps, schema_of
from calhamer.documents.variants import VariantFile
from calhamer.variants import all_variants

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "schemas"


def shipped_schemas() -> dict[str, str]:
    """Each published file's text, for the variants calhamer ships."""
    shipped = [v for v in all_variants() if type(v).__module__.startswith("calhamer.")]
    schemas = {**all_schemas(shipped), "variant-file.json": schema_of(VariantFile)}
    return {name: dumps(schema) for name, schema in sorted(schemas.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, write nothing")
    args = parser.parse_args(argv)
    wanted = shipped_schemas()
    present = {p.name: p.read_text(encoding="utf-8") for p in FOLDER.glob("*.json")}
    if args.check:
        stale = sorted(n for n in set(wanted) | set(present) if wanted.get(n) != present.get(n))
        for name in stale:
            print(f"docs/schemas/{name} is out of date", file=sys.stderr)
        return 1 if stale else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    for name in set(present) - set(wanted):
        (FOLDER / name).unlink()
    for name, text in wanted.items():
        (FOLDER / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(wanted)} schemas to {FOLDER}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
