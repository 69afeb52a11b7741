"""Conformance testing of other engines against the oracle (issue: protocol, harness, mutants)."""

from .engines import PROTOCOL, EngineAdapter, EngineFailure, OracleEngine, SubprocessEngine
from .harness import Disagreement, Report, run_conformance

__all__ = ["PROTOCOL", "Disagreement", "EngineAdapter", "EngineFailure", "OracleEngine", "Report",
           "SubprocessEngine", "run_conformance"]
