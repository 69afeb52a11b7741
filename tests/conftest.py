import atexit
import os
import shutil
import tempfile

import browsing
import pytest
import sitebuild
from hypothesis import HealthCheck, settings

# Property tests run CI's example counts by default, so `python -m pytest` is the suite CI runs;
# HYPOTHESIS_PROFILE=dev doubles them, and THOUSAND_DEEP=1 (or HYPOTHESIS_PROFILE=deep) runs them long.
settings.register_profile("ci", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=50, deadline=None)
settings.register_profile("deep", max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
profile = "deep" if os.environ.get("THOUSAND_DEEP") else os.environ.get("HYPOTHESIS_PROFILE", "ci")
settings.load_profile(profile)

# The disk cache of rule files (oracle/diskcache.py) lives in a scratch directory for the tests,
# never in the user's own cache; subprocesses started by tests inherit it. The first pytest process
# (xdist's controller) makes it and its workers share it, so a ruleset is compiled once per run, not once
# per worker (entries are written atomically, so workers may write at once).
_shared = os.environ.get("THOUSAND_TESTS_CACHE_DIR")
if _shared is None:
    _shared = tempfile.mkdtemp(prefix="thousand-cache-")
    os.environ["THOUSAND_TESTS_CACHE_DIR"] = _shared
    atexit.register(shutil.rmtree, _shared, True)
os.environ["THOUSAND_CACHE_DIR"] = _shared
# A run compiles some hundreds of rulesets (parameter sweeps, presets with overlays, the docs' examples); the
# scratch cache keeps them all, so a worker or a subprocess never compiles again what another just did.
os.environ["THOUSAND_CACHE_KEEP"] = "100000"  # compiled rulesets, about 0.2 MB each


# Tests marked `deep` are the long runs that repeat what a quicker test of the same behaviour shows (one
# mutant of each kind stays in the quick run, the others are deep; a second engine configuration; the
# reference run of a third-party engine). They run with THOUSAND_DEEP=1, or when selected with -m deep.
DEEP = bool(os.environ.get("THOUSAND_DEEP"))


def pytest_collection_finish(session: pytest.Session) -> None:
    # The rulebook site takes a build of several seconds: started now, in the background, when a test to run
    # needs it, so that no test worker sits idle waiting for it later (sitebuild.py).
    wanted = any("site" in getattr(item, "fixturenames", ()) for item in session.items)
    if wanted and not session.config.option.collectonly and sitebuild.buildable():
        sitebuild.start()
        # And the pages the browser tests look at, as soon as the site is built (browsing.py).
        if any("browsed" in getattr(item, "fixturenames", ()) for item in session.items) and browsing.wanted():
            browsing.start()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if DEEP or "deep" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="a long run that a quicker test covers too: THOUSAND_DEEP=1 (or -m deep)")
    for item in items:
        if item.get_closest_marker("deep") is not None:
            item.add_marker(skip)
