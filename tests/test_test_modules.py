"""The test folders have no packages, so pytest imports each test module by its bare name: two
modules of one name in different folders stop the whole run at collection. This keeps the
names apart."""

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).parent


def test_no_two_test_modules_share_a_name() -> None:
    names = Counter(path.name for path in TESTS.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []
