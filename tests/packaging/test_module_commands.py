"""Every ``python -m MODULE`` the README, the docs or the package's own help names exists,
under the name it has where it is meant to run.

The package's sources (``allfours_notation/`` and the viewer's, ``viewer/``) speak to
someone who installed the wheel, where only ``allfours_notation.*`` exists: the viewer's
modules are ``allfours_notation.viewer.*`` there, never ``viewer.*``.  The README and the
docs may also name the checkout's tools (``bench``, ``fuzz``, ``tests``), which must
exist in this checkout.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"python3? -m ([A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_])")
# What an install has besides the package: the standard library and the installer.
INSTALLED_TOOLS = {"venv", "pip"}


def named_modules(paths: list[Path]) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in paths:
        for name in COMMAND.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, path)
    return found


def package_sources() -> list[Path]:
    return sorted([*(ROOT / "allfours_notation").glob("**/*.py"),
                   *(ROOT / "viewer").glob("**/*.py")])


def test_the_package_names_only_modules_an_install_has() -> None:
    named = named_modules(package_sources())
    assert "allfours_notation.viewer.screenshot" in named
    for name, path in named.items():
        top = name.split(".")[0]
        assert top == "allfours_notation" or name in INSTALLED_TOOLS, \
            f"{path.relative_to(ROOT)} names `python -m {name}`, which an install lacks"
        assert importlib.util.find_spec(name) is not None, (name, path)


def test_the_readme_and_docs_name_modules_that_exist() -> None:
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    named = named_modules(documents)
    assert "pytest" in named and "bench" in named
    for name, path in named.items():
        assert name.split(".")[0] != "viewer", \
            f"{path.relative_to(ROOT)}: the viewer is allfours_notation.viewer ({name})"
        assert importlib.util.find_spec(name) is not None, (name, path)
