"""Moved to :mod:`oracle.records`; this name stays for importers not yet updated."""

from .records import RECORD_RULE, Replayer, Verdict, Violation, validate_record  # noqa: F401
