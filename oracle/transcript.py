"""Moved to :mod:`oracle.records`; this name stays for importers not yet updated."""

from .records import RecordFile, full_schema_errors, load_record, parse_record, read_record, record_schema  # noqa: F401
