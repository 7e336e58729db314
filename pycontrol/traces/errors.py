"""The one error type of the traces package."""

from __future__ import annotations

from pycontrol.errors import UserError


class TraceError(UserError):
    """A trace that cannot be prepared as asked; the message says what is wrong and how to fix it."""
