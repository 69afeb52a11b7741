"""A pytest fixture for engine authors: `thousand_conformance(engine, ruleset=...)`.

Enabled automatically when the package is installed (entry point `pytest11`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


@pytest.fixture
def thousand_conformance(tmp_path: Any) -> Callable[..., Any]:
    """Returns run_conformance_test, writing counterexamples under the test's temporary folder."""
    # Imported here: pytest loads this plugin in every run of every project where the oracle is installed,
    # and the harness (with Hypothesis and the interpreter) is some fifty modules that only this fixture needs.
    from .testing import run_conformance_test

    def run(engine: Any, ruleset: str = "classic", **kw: Any) -> Any:
        kw.setdefault("out_dir", tmp_path / "conformance-failures")
        return run_conformance_test(engine, ruleset, **kw)
    return run
