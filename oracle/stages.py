"""The package's stages, in the order data flows through the pipeline (docs/reference/architecture.md).

A unit (a top-level module or sub-package of ``oracle``) may import its own stage or earlier ones;
``tests/test_architecture.py`` holds every import to that. The disk cache keys compiled rulesets by
the code of every unit up to the rulesets' stage (``SHAPING``): by the layering, nothing later can
change what a loaded rule file or a compiled ruleset is.
"""

from __future__ import annotations

STAGES: tuple[tuple[str, frozenset[str]], ...] = (
    ("shared", frozenset({"errors", "limits", "yamlpos", "places", "plural", "diskcache", "rulecache", "stages",
                           "schemacheck"})),
    ("rule language", frozenset({"lang"})),
    ("rule files and rulesets", frozenset({"rulefile", "sequence", "ruleset", "sources", "dossier"})),
    ("interpreter", frozenset({"engine", "runs", "state", "cards", "rulecounts", "candidates"})),
    ("records", frozenset({"records"})),
    ("users", frozenset({"batch", "coverage", "conform", "docgen", "sheet", "compare", "golden", "arguments", "cli",
                         "colour", "testing", "pytest_plugin", "__main__"})),
)

# The stage that makes compiled rulesets, and so the last whose code shapes what the disk cache keeps.
RULESETS_STAGE = 2
SHAPING: frozenset[str] = frozenset().union(*(units for _, units in STAGES[:RULESETS_STAGE + 1]))
# Data files read by the shaping units (the rule files' JSON Schemas), beside the package's code.
SHAPING_DATA = ("schemas",)
