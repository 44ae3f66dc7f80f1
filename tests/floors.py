"""The floors of the house: a folder of the package is a floor, mapped here in one place,
and the import graph read from the sources (no import is run).

Floors, from the ground up (arrows point down: a module imports its own floor or
lower ones, never a higher one)::

    base      the modules at the top of the package: cards, diagnostics, limits, guard,
              visible, safe_write, file_lock, frozen, collector (what every floor
              speaks)
    reading   reading/: the text to records (source, files, slicer, headers, lexer, the
              parser, its syntax errors, the stream, records, seats (table)); what
              reading finds, and nothing about play
    referee   referee/: the rules of All Fours (the structure checks, the table in
              referee/deal/, split by phase)
    checking  checking/: the one door, the public parse (reading, then the structure
              checks), slips, root causes, the solver (analysis/)
    writing   writing/: formatter, export, schema, score sheet, highlighting, HTML replay
    apps      recording/, lsp/, archive/, the viewer, the generator, the package's own
              ``__init__`` (the public API, reaching every floor) and the old module paths
              kept as deprecated re-exports for one release
    events    events/: team matches, standings and prizes over a folder of games (it
              reads the archive's workers and the one door's results; no rule of its own)
    venue     venue/: ``allfours serve``, a web server (aiohttp) in front of one recording
              session per table; no rule of its own, every entry judged by recording/
    commands  cli/ and ``__main__``: the command line, which reaches every app

Beside "arrows point down", the contracts say: nothing below the apps imports Textual,
nothing below the venue imports aiohttp or segno,
the viewer imports no CLI, and nothing in the repository imports a deprecated path.
Imports under ``if TYPE_CHECKING:`` are not edges (they never run); imports inside
functions are.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path


class Floor(IntEnum):
    BASE = 0
    READING = 1
    REFEREE = 2
    CHECKING = 3
    WRITING = 4
    APPS = 5
    EVENTS = 6  # events/: above the archive and the one door, below the command line
    VENUE = 7  # venue/: allfours serve, the tables' phones (over recording/ and events/)
    COMMANDS = 8  # cli/: the command line over every app
    TOOLS = 9  # bench/: measures every floor


# The old module paths docs/library.md showed, kept as deprecated re-exports for one release;
# nothing in the repository may import them.  (The old ``rules`` package warns when one of
# its old names is used.)  Spelt in pieces so
# that no rewriting of module names mistakes them for imports to re-point.
DEPRECATED: tuple[str, ...] = tuple(
    f"allfours_notation.{name}" for name in ("records", "causes", "rules"))

# A module's floor: the longest prefix of its dotted name listed here.  Every folder is
# listed (a folder is a floor); a module at the top of the package is listed by name.
FLOORS: Mapping[str, Floor] = {
    "allfours_notation": Floor.APPS,  # the public API: lazily reaches every floor
    "allfours_notation.__main__": Floor.COMMANDS,
    **{f"allfours_notation.{name}": Floor.BASE for name in (
        "cards", "diagnostics", "limits", "guard", "visible", "safe_write", "file_lock",
        "frozen", "collector")},
    "allfours_notation.reading": Floor.READING,
    "allfours_notation.referee": Floor.REFEREE,
    "allfours_notation.referee.deal": Floor.REFEREE,  # the table, split by phase
    "allfours_notation.checking": Floor.CHECKING,
    "allfours_notation.writing": Floor.WRITING,
    "allfours_notation.recording": Floor.APPS,
    "allfours_notation.lsp": Floor.APPS,
    "allfours_notation.archive": Floor.APPS,
    "allfours_notation.generate": Floor.APPS,
    "allfours_notation.events": Floor.EVENTS,
    "allfours_notation.venue": Floor.VENUE,
    "allfours_notation.cli": Floor.COMMANDS,
    "allfours_notation.viewer": Floor.APPS,
    # Old paths, thin re-exports for one release (issue 22): they reach their new floor.
    **{name: Floor.APPS for name in DEPRECATED},
    "bench": Floor.TOOLS,
}

# Outside libraries only some floors may import: (library, the highest floor that may not).
# The web server's libraries belong to the venue: the recording core gains no web code.
FORBIDDEN_LIBRARIES: Mapping[str, Floor] = {"textual": Floor.WRITING, "aiohttp": Floor.EVENTS,
                                            "segno": Floor.EVENTS}
# Packages one app may not import from another (the viewer uses the public API, not the CLI).
FORBIDDEN_BETWEEN: tuple[tuple[str, str], ...] = (
    ("allfours_notation.viewer", "allfours_notation.cli"),
)


def floor_of(module: str, floors: Mapping[str, Floor] = FLOORS) -> Floor | None:
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        found = floors.get(".".join(parts[:end]))
        if found is not None:
            return found
    return None


@dataclass(frozen=True, slots=True)
class Edge:
    """``importer`` imports ``imported`` (a module of the tree, or an outside library's
    top-level name) at ``line``."""

    importer: str
    imported: str
    line: int


def tree_modules(roots: Mapping[str, Path]) -> dict[str, Path]:
    """Every module under each root folder, by dotted name (``{"pkg": Path("pkg")}``)."""
    found: dict[str, Path] = {}
    for name, folder in roots.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([name, *parts])] = path
    return found


def parsed(path: Path) -> ast.Module:
    """The syntax tree of the file at ``path`` as it reads now.  Several architecture
    tests walk the same ~300 files; each source text is parsed once per process
    (:func:`_parse_text`), so a file changed meanwhile is parsed again.  Nobody may
    change a tree handed out: the same one is handed to the next caller."""
    return _parse_text(path.read_text(encoding="utf-8"))


@functools.cache
def _parse_text(text: str) -> ast.Module:
    return ast.parse(text)


@functools.cache
def walked(tree: ast.AST) -> tuple[ast.AST, ...]:
    """Every node of ``tree`` in :func:`ast.walk`'s order, listed once per tree: the
    tests that read every source file (the architecture checks, the citations) each
    walked the same ~600,000 nodes of the trees :func:`parsed` shares.  Cached by the
    tree's identity, which is safe only because nobody changes a tree handed out."""
    return tuple(ast.walk(tree))


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement under ``node``, at any depth (in functions too), except
    those under ``if TYPE_CHECKING:`` (its ``else`` is walked)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                if isinstance(other, (ast.Import, ast.ImportFrom)):
                    yield other
                else:
                    yield from _import_nodes(other)
        else:
            yield from _import_nodes(child)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def edges(modules: Mapping[str, Path], aliases: Mapping[str, str] | None = None) -> list[Edge]:
    """Every import of every module: to a module of the tree (``from pkg import sub``
    is an edge to ``pkg.sub``; ``from pkg.mod import name`` to ``pkg.mod``) or to an
    outside library by its top-level name.  ``aliases`` maps a top-level name to the
    one the tree knows it by (``viewer`` → ``allfours_notation.viewer``)."""
    aliases = aliases or {}
    found: list[Edge] = []
    for module, path in modules.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in _import_nodes(parsed(path)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                targets = [f"{origin}.{alias.name}" if f"{origin}.{alias.name}" in modules
                           else origin for alias in node.names]
            for target in dict.fromkeys(targets):
                head, _, rest = target.partition(".")
                if head in aliases:
                    target = aliases[head] + (f".{rest}" if rest else "")
                resolved = target
                while resolved and resolved not in modules:
                    resolved = resolved.rpartition(".")[0]
                if resolved and resolved != module:
                    found.append(Edge(module, resolved, node.lineno))
                elif not resolved:
                    found.append(Edge(module, head, node.lineno))
    return found


def circles(modules: Mapping[str, Path], found: list[Edge]) -> list[list[str]]:
    """The import circles: every group of two or more modules that import each other,
    directly or round about (strongly connected components), each sorted."""
    graph: dict[str, set[str]] = {module: set() for module in modules}
    for edge in found:
        if edge.imported in graph:
            graph[edge.importer].add(edge.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(start: str) -> None:  # Tarjan's algorithm, without recursion
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(groups)


def broken_contracts(found: list[Edge], floors: Mapping[str, Floor] = FLOORS,
                     libraries: Mapping[str, Floor] = FORBIDDEN_LIBRARIES,
                     between: tuple[tuple[str, str], ...] = FORBIDDEN_BETWEEN) -> list[str]:
    """Every import that points up a floor, reaches a library its floor may not use, or
    crosses between two apps that must stay apart; each as ``importer:line → imported``."""
    broken = []
    for edge in found:
        mine = floor_of(edge.importer, floors)
        theirs = floor_of(edge.imported, floors)
        where = f"{edge.importer}:{edge.line} → {edge.imported}"
        if mine is None:
            broken.append(f"{where}: {edge.importer} is on no floor (add it to FLOORS)")
        elif theirs is not None and theirs > mine:
            broken.append(f"{where}: {mine.name.lower()} imports {theirs.name.lower()}")
        elif theirs is None and edge.imported in libraries and mine <= libraries[edge.imported]:
            broken.append(f"{where}: {mine.name.lower()} imports {edge.imported}")
        for low, high in between:
            if _within(edge.importer, low) and _within(edge.imported, high):
                broken.append(f"{where}: {low} imports {high}")
    return broken


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")
