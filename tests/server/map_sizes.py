"""The two screens the map's browser tests play on: a desktop and a 390x844 phone."""

from __future__ import annotations

from typing import Any

import pytest

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
                         "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}

SIZES = pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])


def press(page: Any, selector: str, screen: dict[str, Any]) -> None:
    """A click on a desktop, a tap on a phone."""
    if screen.get("has_touch"):
        page.locator(selector).tap()
    else:
        page.locator(selector).click()
