"""Errors meant for the person at the terminal: one clear line, a non-zero exit, no traceback."""


class UserError(Exception):
    """Bad input or an environment problem the user can fix; the message says what and how."""

    exit_code = 2

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.exit_code = exit_code
