"""Golden files: compare an output with its file, or rewrite the file with ``--update-goldens``.

Every text golden of the suite goes through :func:`check_golden`, so that one switch
(``pytest --update-goldens``, see ``tests/conftest.py``) rewrites all of them, and a
difference is always shown the same way: a unified diff from the golden to the output.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOW_TO_UPDATE = "python -m pytest --update-goldens"


def _shown(path: Path) -> str:
    """The golden's path relative to the checkout, so no machine path reaches a message."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return path.name


def check_golden(actual: str, golden: Path, *, update: bool, optional: bool = False) -> None:
    """Pass when ``actual`` equals the text of ``golden``; fail with a diff otherwise.

    With ``update`` the file is (re)written instead.  An ``optional`` golden exists only
    when there is something to hold: an empty ``actual`` means the file must not exist.
    """
    if update:
        golden.parent.mkdir(parents=True, exist_ok=True)
        if optional and not actual:
            golden.unlink(missing_ok=True)
        else:
            golden.write_text(actual, encoding="utf-8", newline="\n")
        return
    if optional and not actual and not golden.exists():
        return
    if not golden.exists():
        pytest.fail(f"no golden file {_shown(golden)}; create it with {HOW_TO_UPDATE}",
                    pytrace=False)
    expected = golden.read_text(encoding="utf-8")
    if actual == expected:
        return
    diff = "".join(difflib.unified_diff(
        expected.splitlines(keepends=True), actual.splitlines(keepends=True),
        fromfile=f"{_shown(golden)} (golden)", tofile="actual output",
    ))
    pytest.fail(f"output differs from the golden file (if the change is intended: "
                f"{HOW_TO_UPDATE})\n{diff}", pytrace=False)
