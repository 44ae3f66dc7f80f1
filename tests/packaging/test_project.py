"""The project's declarations agree with each other: dependency ranges, the constraints
files CI installs, the test subset run at the lowest versions, the single version."""

from __future__ import annotations

import itertools
import re
import tomllib
from pathlib import Path
from typing import Any

import allfours_notation
from tests.conftest import MINIMUM_MODULES, SLOW_MODULES

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENT = re.compile(r"^([A-Za-z0-9_.\[\]-]+)\s*(.*)$")


def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def pins(name: str) -> dict[str, str]:
    """``package: version`` for every ``package==version`` line of a constraints file."""
    found = {}
    for line in (ROOT / "constraints" / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            package, version = line.split("==")
            found[package.lower()] = version
    return found


def ranges(requirements: list[str]) -> dict[str, str]:
    """``package: specifier`` for each requirement (extras of the project itself left out)."""
    found = {}
    for requirement in requirements:
        match = REQUIREMENT.match(requirement)
        assert match, requirement
        if not match.group(1).startswith("allfours-notation"):
            found[match.group(1).lower()] = match.group(2)
    return found


def test_runtime_dependencies_have_a_tested_floor_and_no_cap_without_a_named_break() -> None:
    """A floor on each (the version the lowest-versions job tests); an upper bound only
    where the comment just above it names the release that breaks us: a cap without a
    reason makes pip refuse the package beside tools that need the newer release."""
    for package, specifier in ranges(pyproject()["project"]["dependencies"]).items():
        assert re.search(r">=\s*[0-9]", specifier), f"{package}{specifier}: no floor"
    lines = (ROOT / "pyproject.toml").read_text(encoding="utf-8").splitlines()
    start = lines.index("dependencies = [")
    block = lines[start:lines.index("]", start)]
    for above, line in itertools.pairwise(block):
        if "<" in line.split("#", 1)[0]:
            assert above.strip().startswith("#") and "break" in above, \
                f"{line.strip()}: a cap needs the break it avoids named in a comment above"


def test_the_classifiers_say_what_is_tested() -> None:
    """Linux is where the suite runs (and the recorder's lock needs POSIX); nothing
    claims a curses interface or an interpreter."""
    classifiers = pyproject()["project"]["classifiers"]
    assert "Operating System :: POSIX :: Linux" in classifiers
    assert "Operating System :: OS Independent" not in classifiers
    assert not any("Curses" in c or "Interpreters" in c or "Windows" in c
                   for c in classifiers)
    python = {c.rsplit(" :: ", 1)[1] for c in classifiers
              if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)}
    floor = pyproject()["project"]["requires-python"].removeprefix(">=")
    assert min(python, key=lambda v: int(v.split(".")[1])) == floor


def test_minimum_constraints_pin_each_lower_bound() -> None:
    """What .ci/run installs for its lowest-versions run is exactly each lower bound."""
    declared = ranges(pyproject()["project"]["dependencies"])
    lower = {package: re.search(r">=\s*([^,]+)", spec).group(1).strip()  # type: ignore[union-attr]
             for package, spec in declared.items()}
    assert pins("minimum.txt") == lower


def test_ci_constraints_pin_every_declared_dependency() -> None:
    """CI is reproducible: every runtime and development dependency has a pin."""
    extras = pyproject()["project"]["optional-dependencies"]
    declared = ranges(pyproject()["project"]["dependencies"] + extras["test"] + extras["dev"])
    pinned = pins("ci.txt")
    assert set(declared) <= set(pinned), sorted(set(declared) - set(pinned))


def test_every_module_of_the_minimum_subset_exists() -> None:
    missing = [name for name in MINIMUM_MODULES if not (ROOT / name).is_file()]
    assert missing == []


def test_the_version_is_written_once() -> None:
    project = pyproject()
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["hatch"]["version"]["path"] == "allfours_notation/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", allfours_notation.__version__)


def test_no_project_url_until_the_project_has_a_public_home() -> None:
    """The project has no public home yet (no repository, documentation or issue tracker
    anyone outside can open), so the metadata names none rather than a made-up address;
    the README's "Reporting a bug" says so.  Give [project.urls] real addresses, and drop
    this test, once there are some."""
    project = pyproject()["project"]
    assert "urls" not in project and "urls" not in project.get("dynamic", [])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "no project URLs" in readme


def test_the_slow_tests_exist_and_ci_runs_them() -> None:
    """The whole-suite command leaves the slow modules out; .ci/run runs them after it."""
    for module in SLOW_MODULES:
        assert (ROOT / module).is_file(), module
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ".venv/bin/python -m pytest -m slow" in ci_lines
