#!/usr/bin/env python
"""Check every shipped map file with the map file's model and list it in
``src/calhamer/maps/checked.txt``, so that loading it later skips the model (and pydantic).

Run after adding or changing a shipped map (tests/test_map_startup.py says when):

    PYTHONPATH=src python scripts/check_shipped_maps.py
"""

from __future__ import annotations

import sys

from calhamer.map import _CHECKED_LIST, shipped_map_hashes


def main() -> int:
    listed = shipped_map_hashes()  # raises MapError for a file that fails its check
    with open(_CHECKED_LIST, "w", encoding="utf-8") as f:
        f.write("".join(f"{digest}  {name}\n" for name, digest in sorted(listed.items())))
    print(f"{len(listed)} shipped maps checked and listed in {_CHECKED_LIST}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
