"""The two screens browser tests of play look at: a desktop and a 390x844 phone."""

from __future__ import annotations

from typing import Any

from test_browser_phone import PHONE

SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": PHONE,
}
