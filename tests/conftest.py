"""Shared test helpers, the Hypothesis profiles and the one switch that updates golden files.

Hypothesis profiles (``HYPOTHESIS_PROFILE=NAME``): ``dev`` (the default) tries few
examples so that the whole suite stays near a minute on two cores; ``ci`` tries as many as
the suite did before it was made fast; ``nightly`` tries many more, for a long unattended
run.  The profile in force is printed in the header of every run.

``pytest`` with no path leaves out the tests of :data:`SLOW_MODULES` (marked ``slow``):
``pytest -m slow`` runs them, ``pytest --slow`` runs everything, and naming their file
runs them too.  ``.ci/run`` runs both halves.

``pytest --update-goldens`` rewrites every golden file (the text goldens through
:func:`tests.golden.check_golden` and the viewer's SVG snapshots through syrupy) instead
of comparing with them; read the diff before committing it.  It runs in one process, since
syrupy cannot update snapshots from several workers.

The modules in :data:`MINIMUM_MODULES` are marked ``minimum``: ``.ci/run`` runs them
(``pytest -m minimum``) once more against the lowest dependency versions that
``pyproject.toml`` allows (``constraints/minimum.txt``).
"""

from __future__ import annotations

import sys

# Keep the compiled test modules (rewritten by pytest) and the package's bytecode even
# where PYTHONDONTWRITEBYTECODE is set, as in many container images: without the cache
# every run recompiles ~200 modules in each xdist worker (about 2.5 s of CPU apiece), and
# every `python -m allfours_notation` a test starts compiles the package anew.  The
# __pycache__ folders are ignored by git.  This comes before the imports below: pytest
# rewrites the asserts of every module of a pytest plugin's distribution, Hypothesis's
# ~100 modules among them, and caches the result only while bytecode may be written
# (1.5 s of CPU in every process otherwise).
sys.dont_write_bytecode = False

import atexit  # noqa: E402
import gc  # noqa: E402
import importlib.util  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
from collections.abc import Iterable  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

from allfours_notation.diagnostics import Diagnostic  # noqa: E402

# No test reads or writes the user's cache of analyses (``allfours analyse``; ``stats``
# reads it): each run gets an empty one of its own, inherited by the commands it starts.
os.environ["ALLFOURS_CACHE_DIR"] = tempfile.mkdtemp(prefix="afn-analysis-cache-")
atexit.register(shutil.rmtree, os.environ["ALLFOURS_CACHE_DIR"], ignore_errors=True)

PROFILE_VARIABLE = "HYPOTHESIS_PROFILE"

# One module per dependency's use: Lark (parser, samples), Rich (every command's output,
# compared with golden files), Textual (the viewer and the recorder driven by its Pilot),
# jsonschema.
MINIMUM_MODULES = frozenset({
    "tests/test_architecture.py",
    "tests/parser/test_parse.py",
    "tests/samples/test_samples_golden.py",
    "tests/rules/test_rules_examples.py",
    "tests/cli/test_check_cli.py",
    "tests/cli/test_help_and_completion.py",
    "tests/format/test_export.py",
    "tests/viewer/test_viewer_app.py",
    "tests/recording/test_recorder_app.py",  # Textual's input handling, as the recorder uses it
    "tests/events/test_ratings.py",  # openskill's models and Rating.ordinal()
    "tests/venue/test_serve_http.py",  # aiohttp's server, middleware and test client
})
# Long runs that the whole-suite command leaves out (they are marked ``slow``): `pytest`
# with no path runs everything else in well under a minute; `pytest -m slow` runs these,
# `pytest --slow` runs everything, and naming a file or folder runs what it holds.
# .ci/run runs both halves.
SLOW_MODULES = frozenset({
    "tests/packaging/test_wheel.py",  # builds the wheel, installs it, runs it on a terminal
    "tests/html/test_html_browser.py",  # drives headless Chromium
    "tests/events/test_site_browser.py",  # the results site in headless Chromium
    "tests/venue/test_serve_browser.py",  # allfours serve's table page in headless Chromium
    "tests/venue/test_serve_director_browser.py",  # the director's page in headless Chromium
    "tests/venue/test_serve_cards_browser.py",  # the table page card by card, the next game
    "tests/bench/test_bench.py",  # a whole benchmark run, commands started as processes
    "tests/bench/test_serve_bench.py",  # allfours serve started twice, tables sending for 4 s
    "tests/hostile/test_linear_time.py",  # CPU time per byte on inputs up to 500 KB
    "tests/analysis/test_solver_slow.py",  # the solver against brute force on 2,300 deals
    "tests/analysis/test_bounds_slow.py",  # the early stop's bounds on 1,460 boundaries
    "tests/analysis/test_accelerated_slow.py",  # the C accelerator built, held to the solver
    "tests/rules/test_rules_decided_slow.py",  # the decided/provisional property, 40 games
    "tests/hostile/test_slow_writes.py",  # SIGKILL at 200 points; a real full tmpfs
    "tests/recording/test_file_slow.py",  # the recorder killed ~130 times in a whole game
    "tests/lsp/test_memory_slow.py",  # the language server opening and closing 10,000 times
    "tests/recording/test_recorder_tmux.py",  # allfours record under tmux, key by key
    "tests/recording/test_results_scenario_slow.py",  # a Trinidad night, key by key
    "tests/recording/test_recorder_games_slow.py",  # eight more whole games, key by key
    "tests/recording/test_results_mode_slow.py",  # eight more games by results, key by key
    "tests/events/test_site_premade_slow.py",  # the whole club sample's site made twice
})
# A plugin that only the language server's tests use, by module: pyproject.toml's addopts
# keeps pytest from loading it at start-up (-p no:NAME), and pytest_configure loads it in
# the processes that run tests.  The xdist controller runs none: it no longer imports
# lsprotocol for it (~0.4 s of CPU, and as much wall time before any worker starts).
# Its command-line option (--lsp-devtools) needs it loaded first: -p pytest-lsp.
# (pytest-textual-snapshot cannot wait so: the controller gathers its report.)
LATE_PLUGINS = {"pytest-lsp": "pytest_lsp"}
# The cycle collector's thresholds while the tests run (see pytest_collection_finish).
GC_THRESHOLDS = (10_000, 20, 10)
UPDATE_OPTION = "--update-goldens"
SLOW_OPTION = "--slow"

settings.register_profile(
    "dev", max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "nightly", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get(PROFILE_VARIABLE) or "dev")


def examples(ci: int) -> int:
    """How many examples a test that sets its own count tries: ``ci`` under the ``ci``
    profile, twenty times as many under ``nightly``, and under ``dev`` (the default, the
    whole-suite command) a quarter of it, never fewer than the profile's 12."""
    profile = os.environ.get(PROFILE_VARIABLE) or "dev"
    if profile == "nightly":
        return ci * 20
    return ci if profile == "ci" else max(12, ci // 4)


def pytest_addoption(parser: pytest.Parser, pluginmanager: pytest.PytestPluginManager) -> None:
    if not pluginmanager.hasplugin("asyncio"):
        # pyproject.toml sets pytest-asyncio's loop scope; the lowest-versions job runs
        # without pytest-asyncio (it comes with pytest-lsp), where the key is unknown.
        parser.addini("asyncio_default_fixture_loop_scope", "pytest-asyncio's (absent here)")
    parser.addoption(
        UPDATE_OPTION,
        action="store_true",
        default=False,
        help="rewrite every golden file and snapshot with the current output instead of "
        "comparing (then read the diff before committing it)",
    )
    parser.addoption(
        SLOW_OPTION,
        action="store_true",
        default=False,
        help="also run the slow tests (marked 'slow': the wheel, the browser, the benchmark "
        "run, linear time) when the whole suite runs; `-m slow` runs only them",
    )


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """With ``--update-goldens``: no xdist workers, and syrupy updates its snapshots too."""
    if config.getoption(UPDATE_OPTION):
        if hasattr(config.option, "numprocesses"):
            config.option.numprocesses = None
            config.option.dist = "no"
        config.option.update_snapshots = True


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than this process may use cores (``cores_for_tests``),
    unless ``PYTEST_XDIST_AUTO_NUM_WORKERS`` says how many (xdist's own rule then).

    The Pilot tests spend about a third of their wall time waiting: Textual's Pilot
    looks for an idle app 20 ms at a time, twice after every key.  With one worker per
    core a core idles while its worker waits; a third worker on two cores ran the suite
    in 59-64 s of wall against 73 s with two, for the same CPU (99-112 s)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return cores_for_tests() + 1


def cores_for_tests() -> int:
    """The cores this process may run on (its affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def leaves_out_slow(config: pytest.Config) -> bool:
    """Whether this run leaves the ``slow`` tests out: the whole suite (no path given),
    without ``--slow`` and without a ``-m`` expression of its own."""
    return (config.args_source is pytest.Config.ArgsSource.TESTPATHS
            and not config.option.markexpr and not config.getoption(SLOW_OPTION)
            and not config.getoption(UPDATE_OPTION))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the tests of :data:`MINIMUM_MODULES` ``minimum`` and those of
    :data:`SLOW_MODULES` ``slow``; leave the slow ones out where :func:`leaves_out_slow`."""
    root = config.rootpath
    slow: list[pytest.Item] = []
    for item in items:
        module = item.path.relative_to(root).as_posix()
        if module in MINIMUM_MODULES:
            item.add_marker(pytest.mark.minimum)
        if module in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
            slow.append(item)
    if slow and leaves_out_slow(config):
        # skipped, not deselected: the summary says how to run them (and syrupy still
        # checks for unused snapshots)
        left_out = pytest.mark.skip(reason="slow: `pytest -m slow` runs it, `--slow` too")
        for item in slow:
            item.add_marker(left_out)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection made (every test module, Hypothesis, the package) out of
    the cycle collector's sight: the collector otherwise walks it all again and again
    while the Textual tests make and drop their many small objects (a third of the
    viewer tests' CPU time).  Nothing frozen is garbage: it is collected just before.

    Then the collector runs less often (:data:`GC_THRESHOLDS`): with Python's default
    (700, 10, 10) a Pilot test spends a fifth of its CPU time in it, walking the
    Textual objects that live from one frame to the next; with these, under a tenth,
    for some 30 MB more memory at the peak.  Cycles are still collected, only later."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under ``-m minimum`` collect only :data:`MINIMUM_MODULES`.

    The lowest-versions job installs only the ``test`` extra, so the other modules may
    import tools it does not have (pytest-lsp, selenium, syrupy).
    """
    if config.option.markexpr != "minimum" or not collection_path.name.startswith("test_"):
        return None
    if collection_path.suffix != ".py":
        return None
    relative = collection_path.relative_to(config.rootpath).as_posix()
    return relative not in MINIMUM_MODULES or None


def pytest_report_header(config: pytest.Config) -> str:
    profile = os.environ.get(PROFILE_VARIABLE) or "dev"
    mode = "rewriting golden files" if config.getoption(UPDATE_OPTION) else "comparing goldens"
    slow = ("slow tests left out: `-m slow` runs them, `--slow` runs everything"
            if leaves_out_slow(config) else "slow tests included if selected")
    return f"hypothesis profile: {profile} (set {PROFILE_VARIABLE}=ci or nightly); {mode}; {slow}"


def codes(diagnostics: Iterable[Diagnostic]) -> list[str]:
    """The codes of ``diagnostics`` in order, for compact assertions."""
    return [d.code for d in diagnostics]


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    """True when the run rewrites golden files (``--update-goldens``) instead of comparing."""
    return bool(request.config.getoption(UPDATE_OPTION))


def pytest_configure(config: pytest.Config) -> None:
    """Make ``--dist loadgroup`` keep each ``xdist_group`` on one worker (see
    :mod:`tests.xdist_groups` for why xdist alone no longer does); load the
    :data:`LATE_PLUGINS` where tests run."""
    if config.pluginmanager.hasplugin("xdist"):
        from tests.xdist_groups import GroupPlugin

        config.pluginmanager.register(GroupPlugin(), "afn-xdist-groups")
    if runs_tests(config):
        for name, module in LATE_PLUGINS.items():
            if not config.pluginmanager.has_plugin(name) and \
                    importlib.util.find_spec(module) is not None:  # not installed: -m minimum
                config.pluginmanager.import_plugin(module)


def runs_tests(config: pytest.Config) -> bool:
    """Whether this process runs tests: an xdist worker, or a run without workers (or
    one that only collects), not the controller that hands tests to workers."""
    if hasattr(config, "workerinput") or config.getoption("collectonly"):
        return True
    return config.getoption("dist", "no") == "no" or not config.getoption("tx", None)
