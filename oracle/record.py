"""Moved to :mod:`oracle.records`; this name stays for importers not yet updated."""

from .records import FORMAT, VERSION, Recorder, decode_value, encode_action, encode_value, is_chance, sheet_value  # noqa: F401
