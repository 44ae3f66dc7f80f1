"""The floors of the house: every module of the package mapped to its layer, in one place,
and the import graph read from the sources (no import is run).

Floors, from the ground up (arrows point down: a module imports its own floor or
lower ones, never a higher one)::

    base      cards, diagnostics, limits, guard, visible, safe_write: what every
              floor speaks
    reading   the text to records: source, files, slicer, headers, lexer, the parser,
              its syntax errors, the stream, records, seats (table), structure checks
    referee   the rules of All Fours: referee/deal/ (the table, by phase), rules/
              (play, scoring, profiles, house rules, starting scores, the replay,
              the dispute report)
    checking  the one door (checking), slips, root causes (causes), the solver
              (analysis/; its per-player accuracy is an app's, beside stats)
    writing   formatter, export, schema, score sheet, highlighting, HTML replay
    apps      recording/, lsp/, archive/, the generator, cli/, the viewer, the
              package's own ``__init__`` (the public API, reaching every floor)

The folders of the planned tree (``reading/``, ``referee/``, ``checking/``,
``writing/``, issue 22) are these floors; until the modules move, this mapping is
the tree.  Beside "arrows point down", the contracts say: nothing below the apps
imports Textual, the viewer imports no CLI.  Imports under ``if TYPE_CHECKING:`` are
not edges (they never run); imports inside functions are.
"""

from __future__ import annotations

import ast
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
    TOOLS = 6  # bench/: measures every floor


# A module's floor: the longest prefix of its dotted name listed here.
FLOORS: Mapping[str, Floor] = {
    "allfours_notation": Floor.APPS,  # the public API: lazily reaches every floor
    "allfours_notation.__main__": Floor.APPS,
    "allfours_notation.cards": Floor.BASE,
    "allfours_notation.diagnostics": Floor.BASE,
    "allfours_notation.limits": Floor.BASE,
    "allfours_notation.guard": Floor.BASE,
    "allfours_notation.visible": Floor.BASE,  # control characters shown, not obeyed
    "allfours_notation.safe_write": Floor.BASE,  # files written whole or not at all
    "allfours_notation.source": Floor.READING,
    "allfours_notation.files": Floor.READING,
    "allfours_notation.slicer": Floor.READING,
    "allfours_notation.headers": Floor.READING,
    "allfours_notation.lexer": Floor.READING,
    "allfours_notation.syntax_errors": Floor.READING,
    "allfours_notation.parser": Floor.READING,
    "allfours_notation.stream": Floor.READING,
    "allfours_notation.records": Floor.READING,
    "allfours_notation.table": Floor.READING,
    "allfours_notation.structure": Floor.READING,  # planned: referee/ (it judges play)
    "allfours_notation.rules": Floor.REFEREE,
    "allfours_notation.referee": Floor.REFEREE,  # deal/: the table, split by phase
    "allfours_notation.checking": Floor.CHECKING,
    "allfours_notation.analysis": Floor.CHECKING,  # the solver: on the referee's legality
    "allfours_notation.analysis.accuracy": Floor.APPS,  # per player, for stats (archive)
    "allfours_notation.slips": Floor.CHECKING,
    "allfours_notation.causes": Floor.CHECKING,
    "allfours_notation.formatter": Floor.WRITING,
    "allfours_notation.export": Floor.WRITING,
    "allfours_notation.schema": Floor.WRITING,
    "allfours_notation.sheet": Floor.WRITING,
    "allfours_notation.highlight": Floor.WRITING,
    "allfours_notation.html_replay": Floor.WRITING,
    "allfours_notation.recording": Floor.APPS,
    "allfours_notation.lsp": Floor.APPS,
    "allfours_notation.archive": Floor.APPS,
    "allfours_notation.generate": Floor.APPS,
    "allfours_notation.cli": Floor.APPS,
    "allfours_notation.viewer": Floor.APPS,
    "bench": Floor.TOOLS,
}

# Outside libraries only some floors may import: (library, the highest floor that may not).
FORBIDDEN_LIBRARIES: Mapping[str, Floor] = {"textual": Floor.WRITING}
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
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in _import_nodes(tree):
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
