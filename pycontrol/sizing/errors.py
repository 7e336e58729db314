"""The one error type of the sizing package."""

from __future__ import annotations

from pycontrol.errors import UserError


class SizingError(UserError):
    """A DAG, model table or rate that cannot be used; the message says which one and why."""
