"""The shape of the codebase: dependency direction and the grammar's soundness."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from lark import Lark

from allfours_notation.parser import grammar_text


def test_core_package_never_imports_textual() -> None:
    code = (
        "import sys, allfours_notation, allfours_notation.cli, allfours_notation.parser; "
        "import allfours_notation.cli as c; c.build_parser(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


ROOT = Path(__file__).resolve().parents[1]


def test_the_viewer_is_imported_only_as_allfours_notation_viewer() -> None:
    """The viewer's sources live in ``viewer/`` at the top of the repository, but the
    package knows them as ``allfours_notation.viewer`` (through a symlink; that is what
    the wheel installs).  Importing the top-level ``viewer`` as well would load every
    module twice, as two different sets of classes."""
    link = ROOT / "allfours_notation" / "viewer"
    assert link.is_symlink() and link.resolve() == (ROOT / "viewer").resolve()
    offenders = []
    for folder in ("allfours_notation", "viewer", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            if folder == "allfours_notation" and path.is_relative_to(link):
                continue  # the same files as viewer/, reached through the link
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.level == 0:
                    names = [node.module or ""]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                if any(name == "viewer" or name.startswith("viewer.") for name in names):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == [], "import allfours_notation.viewer instead: " + ", ".join(offenders)


def test_grammar_builds_in_strict_mode() -> None:
    """strict=True turns shift/reduce conflicts and terminal collisions into errors."""
    parser = Lark(grammar_text(), parser="lalr", lexer="contextual", strict=True)
    assert parser.parse('[Event "x"] deal 1 dealer N turn 4S S stands end') is not None


def test_public_api_reaches_every_layer_lazily() -> None:
    code = (
        "import sys, allfours_notation as a; "
        "before = 'allfours_notation.rules.replay' in sys.modules; "
        "names = [a.replay.__name__, a.check_game.__name__, a.format_game.__name__, "
        "a.result_to_json.__name__]; "
        "print(before, names)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == (
        "False ['replay', 'check_game', 'format_game', 'result_to_json']"
    )


def test_only_the_lsp_command_imports_pygls() -> None:
    """pygls (and lsprotocol) load when ``allfours lsp`` runs, never for the other
    commands, the CLI's parser or a check of a file."""
    code = (
        "import sys, allfours_notation.cli as c; c.build_parser(); "
        "c.main(['check', '--quiet', 'samples/club-night.afn']); "
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'pygls', 'lsprotocol'}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "[]"
