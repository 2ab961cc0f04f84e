"""Shared fixtures, one plugin per family in ``tests/fixtures/``:

- ``fixtures.hand_made``: ``fixture_db``, a small hand-made database in the real schema (no parser needed, so page
  tests run even while the real build is broken);
- ``fixtures.real_build``: ``real_db``/``real_build``, the real database built once per run in the background
  (kept in pytest's cache under a digest of what it reads), ``real_server`` serving it, ``hostile_db`` built from a
  rulebook whose text attacks the pages, ``parsed_riftbound`` and ``spacy_loaded``;
- ``fixtures.browser``: ``chromium``/``browser``, one chromium per test process with a shared page per screen size.

Here: the settings every test runs under (no embedding model, the hypothesis profiles) and the order the modules
run in.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

# The suite's builds embed nothing (the semantic stage's model costs minutes of CPU on a fresh machine): the semantic
# stage's own tests (tests/test_semantic.py) build their vectors with a stand-in encoder. RULES_DB_ENCODER=stand-in
# (or the model's name) runs the whole suite with one.
os.environ.setdefault("RULES_DB_ENCODER", "off")

# Property-based tests (tests/test_fuzz.py): a few hundred examples per target in the suite, 20 in the edit-run
# loop (``make test-fast`` chooses the ``quick`` profile), 10,000 in the long run (``pytest tests/test_fuzz.py
# --hypothesis-profile=fuzz``). No deadline: the machine is shared.
_FUZZ = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
settings.register_profile("quick", max_examples=20, **_FUZZ)
settings.register_profile("suite", max_examples=200, **_FUZZ)
settings.register_profile("fuzz", max_examples=10_000, **_FUZZ)
settings.load_profile("suite")

pytest_plugins = ["fixtures.hand_made", "fixtures.real_build", "fixtures.browser"]


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that needs the real database is slow: ``make test-fast`` leaves it out.

    The order of the modules changes so that both workers of ``make test`` stay busy: first the modules that
    need neither the real database nor the browser (they run while the database builds), then the browser
    modules (the longest tests, started first so they do not end the run alone), then the rest. Within a
    module the order stays as written.
    """
    from fixtures.real_build import needs_real_build  # imported once the settings above are in place

    needs_build, browser = set(), set()
    for item in items:
        if needs_real_build(item):
            item.add_marker(pytest.mark.slow)
            needs_build.add(item.module)
        if item.get_closest_marker("browser"):
            browser.add(item.module)
    modules = list(dict.fromkeys(item.module for item in items))
    rank = {module: 0 if module not in needs_build | browser else 1 if module in browser else 2 for module in modules}
    items.sort(key=lambda item: rank[item.module])
