"""The shape of the codebase: dependency direction and the grammar's soundness."""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark

from allfours_notation.reading.lark_parser import grammar_text
from tests.floors import Edge, edges, parsed, walked

# The tests that read every source file run on one worker, where each file is parsed
# once for all of them (tests.floors.parsed), not once per test and per worker.
reads_the_sources = pytest.mark.xdist_group("source-trees")


def test_core_package_never_imports_textual() -> None:
    code = (
        "import sys, allfours_notation, allfours_notation.cli, allfours_notation.reading.parser; "
        "import allfours_notation.cli as c; c.build_parser(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


ROOT = Path(__file__).resolve().parents[1]


@reads_the_sources
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
            for node in walked(parsed(path)):
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
        "before = 'allfours_notation.referee.replay' in sys.modules; "
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


# --- floors and circles (issue 22): the mapping and the checker are in tests/floors.py ---------


def _package_modules() -> dict[str, Path]:
    from tests.floors import tree_modules

    link = ROOT / "allfours_notation" / "viewer"
    found = {name: path for name, path in tree_modules({
        "allfours_notation": ROOT / "allfours_notation", "bench": ROOT / "bench"}).items()
        if not path.is_relative_to(link)}
    found.update(tree_modules({"allfours_notation.viewer": ROOT / "viewer"}))
    return found


@functools.cache
def _package_edges() -> tuple[Edge, ...]:
    """The package's import graph, read once per process for the tests that check it."""
    return tuple(edges(_package_modules(), {"viewer": "allfours_notation.viewer"}))


@reads_the_sources
def test_no_import_circles_in_the_package_or_bench() -> None:
    """Imports inside functions count (they run); those under TYPE_CHECKING do not."""
    from tests.floors import circles

    modules = _package_modules()
    found = list(_package_edges())
    assert len(modules) > 100 and len([e for e in found if e.imported in modules]) > 400
    assert circles(modules, found) == []


@reads_the_sources
def test_every_import_keeps_to_the_floors() -> None:
    """Arrows point down (reading imports no referee, the referee no checking, writing or
    app), nothing below the apps imports Textual, the viewer imports no CLI, and every
    module is on a floor."""
    from tests.floors import broken_contracts

    assert broken_contracts(list(_package_edges())) == []


def test_a_forbidden_import_or_a_circle_is_caught(tmp_path: Path) -> None:
    """The checker run on a synthetic tree: each kind of broken contract is reported,
    and an import under TYPE_CHECKING is not one."""
    from tests.floors import Floor, broken_contracts, circles, edges, tree_modules

    files = {
        "__init__.py": "",
        "reading.py": "def f():\n    from .referee import judge\n",  # up a floor, lazily
        "referee.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                      "    from .app import App\nfrom . import reading\n",
        "writing.py": "import textual.app\n",
        "viewer/__init__.py": "",
        "viewer/screen.py": "from ..cli import main\n",
        "cli.py": "from .viewer import screen\nimport textual\n",
        "app.py": "from .cli import main\n",
    }
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    floors = {"pkg": Floor.APPS, "pkg.reading": Floor.READING, "pkg.referee": Floor.REFEREE,
              "pkg.writing": Floor.WRITING, "pkg.viewer": Floor.APPS, "pkg.cli": Floor.APPS}
    modules = tree_modules({"pkg": tmp_path / "pkg"})
    found = edges(modules)
    broken = broken_contracts(found, floors, {"textual": Floor.WRITING},
                              (("pkg.viewer", "pkg.cli"),))
    assert sorted(broken) == [
        "pkg.reading:2 → pkg.referee: reading imports referee",
        "pkg.viewer.screen:1 → pkg.cli: pkg.viewer imports pkg.cli",
        "pkg.writing:1 → textual: writing imports textual",
    ]
    unplaced = broken_contracts(found, {"pkg.reading": Floor.READING}, {}, ())
    assert {line.split(":")[0] for line in unplaced} == {  # every importer not on a floor
        "pkg.app", "pkg.cli", "pkg.referee", "pkg.viewer.screen", "pkg.writing"}
    assert all(line.endswith("is on no floor (add it to FLOORS)") for line in unplaced)
    assert circles(modules, found) == [["pkg.cli", "pkg.viewer.screen"],
                                       ["pkg.reading", "pkg.referee"]]


# --- no rule outside the referee: no client reads a message's words (issue 22) ------------------

_WORDS = frozenset({"message", "note"})  # a Diagnostic's message, an Expect's note
_SEARCHES = frozenset({"startswith", "endswith", "find", "rfind", "index", "count",
                       "partition", "split", "search", "match", "fullmatch", "findall"})


def _reads_words(node: ast.expr) -> bool:
    """``d.message`` / ``expects.note`` (also through a call such as ``d.message.lower()``)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    return isinstance(node, ast.Attribute) and node.attr in _WORDS


def _written_words(node: ast.expr) -> bool:
    """Words written in the code: a string, an f-string, a module's constant (``WORDS``)."""
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or \
        isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Name) and node.id.isupper())


def words_compared(tree: ast.AST) -> list[int]:
    """The lines where a message's words are compared with words written here: ``"…" in
    d.message``, ``d.message == "…"``, ``d.message.startswith(…)``, ``re.search(…,
    d.message)``.  A message compared whole with another (a finding's identity, or
    whether a rewording changed it) is not that."""
    lines = []
    for node in walked(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if not any(_reads_words(side) for side in sides):
                continue
            contains = any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops)
            if contains or any(_written_words(side) for side in sides):
                lines.append(node.lineno)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _SEARCHES and (
                    _reads_words(node.func.value) or any(_reads_words(a) for a in node.args)):
            lines.append(node.lineno)
    return lines


@reads_the_sources
def test_no_module_outside_the_referee_reads_the_words_of_a_message() -> None:
    from tests.floors import Floor, floor_of

    offenders: list[str] = []
    for module, path in _package_modules().items():
        if floor_of(module) is Floor.REFEREE:
            continue  # the rules write their messages (and may word them from each other)
        tree = parsed(path)
        offenders.extend(f"{module}:{line}" for line in words_compared(tree))
    assert offenders == []


def test_the_words_check_catches_each_way_of_reading_words() -> None:
    caught = words_compared(ast.parse(
        'a = "pack" in d.message\n'
        'b = e.note.startswith("the pack")\n'
        'c = d.message.lower() == "x"\n'
        'f = re.search("run", d.message)\n'
        'g = d.message == other.message\n'  # a finding's identity: allowed
        'h = d.code in CODES\n'
        'i = shown(d.message) == d.message\n'  # whether a rewording changed it: allowed
        'j = d.message != WORDS\n'
        'k = words in d.message\n'))
    assert caught == [1, 2, 3, 4, 8, 9]


# --- the tree is the pipeline (issue 22): a folder is a floor ----------------------------------


def test_reading_importing_the_referee_is_caught_on_the_real_floors() -> None:
    """The package's own mapping, not a synthetic one: an arrow up from reading/ to
    referee/, or from referee/ to checking/, is reported; the same arrows down are not."""
    from tests.floors import Edge, broken_contracts

    up = [Edge("allfours_notation.reading.parser", "allfours_notation.referee.replay", 7),
          Edge("allfours_notation.referee.disputes", "allfours_notation.checking.slips", 9)]
    assert broken_contracts(up) == [
        "allfours_notation.reading.parser:7 → allfours_notation.referee.replay: "
        "reading imports referee",
        "allfours_notation.referee.disputes:9 → allfours_notation.checking.slips: "
        "referee imports checking",
    ]
    down = [Edge(edge.imported, edge.importer, edge.line) for edge in up]
    assert broken_contracts(down) == []


def test_every_folder_of_the_package_is_a_floor() -> None:
    """Each folder of the package is named in FLOORS (so its modules need no entry of
    their own), and each module at the top of the package is listed by name."""
    from tests.floors import FLOORS

    package = ROOT / "allfours_notation"
    folders = {f"allfours_notation.{path.name}" for path in package.iterdir()
               if (path / "__init__.py").is_file()}
    tops = {f"allfours_notation.{path.stem}" for path in package.glob("*.py")
            if path.name != "__init__.py"}
    assert folders - set(FLOORS) == set()
    assert tops - set(FLOORS) == set()
    assert {"allfours_notation.reading", "allfours_notation.referee",
            "allfours_notation.checking", "allfours_notation.writing"} <= folders


@reads_the_sources
def test_nothing_in_the_repository_imports_a_deprecated_path() -> None:
    from tests.floors import DEPRECATED, edges, tree_modules

    modules = _package_modules()
    modules.update(tree_modules({"tests": ROOT / "tests", "fuzz": ROOT / "fuzz"}))
    found = [f"{edge.importer}:{edge.line} → {edge.imported}"
             for edge in edges(modules, {"viewer": "allfours_notation.viewer"})
             if edge.imported in DEPRECATED and edge.importer not in DEPRECATED]
    assert found == []
    assert {name for name in DEPRECATED if name in modules} == set(DEPRECATED)


def test_the_old_paths_warn_and_give_the_same_objects() -> None:
    """One release of grace: the old ``records`` and ``causes`` at the top of the package
    warn when imported, the old ``rules`` package when one of its old names is used; importing
    the table first warns of nothing."""
    code = (
        "import warnings, importlib\n"
        "warnings.simplefilter('error')\n"
        "from allfours_notation.referee.deal import Table\n"
        "from allfours_notation.referee import resolve_options\n"
        "from allfours_notation.reading.records import Game\n"
        "from allfours_notation.checking.causes import explain\n"
        "warnings.simplefilter('always')\n"
        "with warnings.catch_warnings(record=True) as seen:\n"
        "    old = importlib.import_module('allfours_notation.' + 'records')\n"
        "    causes = importlib.import_module('allfours_notation.' + 'causes')\n"
        "    rules = importlib.import_module('allfours_notation.' + 'rules')\n"
        "    same = (old.Game is Game, causes.explain is explain,\n"
        "            rules.resolve_options is resolve_options)\n"
        "print(same, sorted({type(w.message).__name__ for w in seen}), len(seen))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "(True, True, True) ['DeprecationWarning'] 3"


# The referee's modules the event layer may read: the replay's records, the rule profiles
# and a house-rules file (to name the rules every game is refereed under); never its table,
# scoring or play, so that no rule of All Fours is worked out again above the door.
EVENTS_MAY_READ_OF_THE_REFEREE = frozenset({
    "allfours_notation.referee.state", "allfours_notation.referee.profiles",
    "allfours_notation.referee.house"})


def events_reaching_into_the_referee(found: list[Edge]) -> list[str]:
    return sorted(f"{e.importer}:{e.line} → {e.imported}" for e in found
                  if e.importer.startswith("allfours_notation.events")
                  and e.imported.startswith("allfours_notation.referee")
                  and e.imported not in EVENTS_MAY_READ_OF_THE_REFEREE)


@reads_the_sources
def test_the_event_layer_reads_results_and_works_out_no_rule() -> None:
    found = list(_package_edges())
    assert any(e.importer.startswith("allfours_notation.events") for e in found)
    assert events_reaching_into_the_referee(found) == []
    planted = Edge("allfours_notation.events.prizes", "allfours_notation.referee.scoring", 3)
    assert events_reaching_into_the_referee([planted]) == [
        "allfours_notation.events.prizes:3 → allfours_notation.referee.scoring"]


# Where the house's own code lives: every module, test, benchmark, fuzzer, the
# accelerator's C and the pages' scripts.
SOURCE_FOLDERS = ("allfours_notation", "viewer", "bench", "fuzz", "tests", "accel/allfours_accel")
SOURCE_SUFFIXES = frozenset({".py", ".c", ".h", ".js"})
MOST_LINES = 800


def source_files(root: Path) -> list[Path]:
    """The house's source files under ``root``, build output and caches left out."""
    found = []
    for folder in SOURCE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in SOURCE_SUFFIXES and path.is_file() and not (
                    {"__pycache__", "build", ".venv"} & set(path.relative_to(root).parts)):
                found.append(path)
    return found


def too_long(root: Path) -> list[str]:
    """Each source file over the house's limit, with its count of lines."""
    counted = ((path, len(path.read_text(encoding="utf-8").splitlines()))
               for path in source_files(root))
    return [f"{path.relative_to(root)}: {count} lines" for path, count in counted
            if count > MOST_LINES]


def test_no_source_file_is_over_800_lines() -> None:
    """The house rule: no module over 800 lines, the C and the scripts included (a file
    that grows past it is split along a seam of its own)."""
    assert source_files(ROOT), "the source folders were not found"
    assert too_long(ROOT) == []


def test_the_line_limit_catches_a_long_file(tmp_path: Path) -> None:
    (tmp_path / "allfours_notation").mkdir()
    (tmp_path / "allfours_notation" / "short.py").write_text("x = 1\n" * MOST_LINES)
    (tmp_path / "accel" / "allfours_accel").mkdir(parents=True)
    (tmp_path / "accel" / "allfours_accel" / "_long.c").write_text("int x;\n" * (MOST_LINES + 1))
    assert too_long(tmp_path) == [f"{Path('accel/allfours_accel/_long.c')}: 801 lines"]
