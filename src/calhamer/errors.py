"""The exceptions calhamer raises. Each message is a sentence a user can act on."""

from __future__ import annotations


class CalhamerError(Exception):
    """Base class of every error calhamer raises on purpose."""


class MapError(CalhamerError):
    """A map file is missing or inconsistent."""


class PhaseError(CalhamerError):
    """A phase document or position is malformed."""


class OrderError(CalhamerError, ValueError):
    """An order cannot be accepted.

    ``text`` is the whole order as written, ``start``/``end`` the span of the offending
    fragment within it, and ``suggestion`` a likely intended meaning, if one is known.
    """

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        start: int = 0,
        end: int | None = None,
        suggestion: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.start = start
        self.end = len(text) if end is None else end
        self.suggestion = suggestion

    def __str__(self) -> str:
        where = f" (column {self.start + 1})" if self.text else ""
        hint = f"; {self.suggestion}" if self.suggestion else ""
        return f"{self.message}{where}{hint}"

    def against(self, text: str) -> OrderError:
        """The same error, shown against ``text`` (the order as the player wrote it, when a
        variant read a rewritten form of it)."""
        return type(self)(
            self.message, text=text, start=self.start, end=self.end, suggestion=self.suggestion
        )

    def pointer(self) -> str:
        """The order with a caret line under the offending fragment, for terminals."""
        width = max(1, self.end - self.start)
        return f"{self.text}\n{' ' * self.start}{'^' * width}"


class InvalidOrderError(OrderError):
    """The text is not understood as an order."""


class IllegalOrderError(OrderError):
    """The order is understood but the rules do not allow it here."""


class AmbiguousOrderError(OrderError):
    """The order could mean more than one thing (a missing coast, an omitted unit type)."""
