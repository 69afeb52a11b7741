"""Errors that point into the input: a file, a line and column, and a reason.

Every error a user can cause (a broken rule file, a bad transcript, a bad command
line) is one of these, so the command line can print it as ``file:line:col: reason``
and never as a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    file: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


class OracleError(Exception):
    """Base of every error the oracle reports to a user."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        if self.location is None:
            return self.message
        return f"{self.location}: {self.message}"


class RuleFileError(OracleError):
    """A rule, overlay or preset file cannot be loaded or compiled."""


class RulesetError(OracleError):
    """A ruleset cannot be resolved: unknown names, conflicting overlays."""


class RuleRuntimeError(OracleError):
    """Rule logic failed while running (for example an index out of range)."""


class InputError(OracleError):
    """A record, a command line or an engine reply is malformed."""


class UsageError(InputError):
    """The command line itself is wrong (an unknown option or ruleset, a bad value): nothing was read yet.

    Kept apart from a record that cannot be read, so that the exit codes tell the two apart."""
class OutputError(OracleError):
    """Output cannot be written: a folder named as a file, a full disk, a device that refuses it."""


class ParamError(RulesetError):
    """A parameter's value is refused (unknown name, wrong type, out of bounds); ``param`` names it."""

    def __init__(self, message: str, location: Location | None = None, param: str | None = None) -> None:
        super().__init__(message, location)
        self.param = param
