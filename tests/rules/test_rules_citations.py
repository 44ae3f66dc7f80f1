"""Every citation of a rules page names a file of the project and a section it has.

Hints, option texts, ``allfours rules`` lines, docstrings and the docs cite
``docs/rules.md section 6.3`` (or ``NOTATION.md §4.3``): each such citation must
name a file in the repository and a numbered heading of that file.  The strings
of the Python sources are read with :mod:`ast`, so that a citation split over two
string literals ("…docs/rules.md section " "6.3…") is read whole.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

from allfours_notation.referee.profiles import PROFILES, VALUE_SOURCES
from tests.floors import parsed, walked

ROOT = Path(__file__).resolve().parents[2]
CITATION = re.compile(
    r"(?P<file>[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)\)?,?\s+"
    r"(?:(?:section|sections|rules?)\s+|§\s*)"
    r"(?P<first>\d+(?:\.\d+)?[a-z]?)"
    r"(?:\s*(?:and|to|–|-)\s*(?P<second>\d+(?:\.\d+)?[a-z]?))?")
NAMED_MD = re.compile(r"(?<![A-Za-z0-9_./-])(?P<file>[A-Za-z0-9_./-]*[A-Z][A-Za-z0-9_-]*\.md)\b")
SKIP = {".venv", ".git", "node_modules", "golden", "__pycache__", ".mypy_cache",
        ".ruff_cache", ".pytest_cache", ".hypothesis"}


def texts() -> list[tuple[Path, str]]:
    """The text of every doc, sample and grammar note; the string constants of every
    Python source of the package, the viewer, the benchmarks and the tests."""
    found: list[tuple[Path, str]] = []
    for path in project_files():
        if path == Path(__file__).resolve():
            continue  # this file's examples of wrong citations
        if path.suffix in (".md", ".afn", ".toml"):
            found.append((path, path.read_text(encoding="utf-8")))
        elif path.suffix == ".py":
            tree = parsed(path)  # parsed once per process (the architecture tests too)
            strings = [node.value for node in walked(tree)
                       if isinstance(node, ast.Constant) and isinstance(node.value, str)]
            found.append((path, "\n".join(strings)))
    return found


# What the benchmarks and the fuzzers write (ignored by git): tens of MB of generated
# games on a machine that ran them, none of it the project's.
SKIP_FOLDERS = {ROOT / "bench" / "out", ROOT / "fuzz" / "out"}


def project_files() -> list[Path]:
    """Every file of the repository, but those of tools and caches (and goldens)."""
    files: list[Path] = []
    for folder, subfolders, names in os.walk(ROOT):
        subfolders[:] = sorted(name for name in subfolders if name not in SKIP
                               and Path(folder) / name not in SKIP_FOLDERS)
        files.extend(Path(folder) / name for name in sorted(names))
    return files


def resolve(cited: str, citing: Path) -> Path | None:
    """The file a citation names: from the repository's root, from the citing file's
    folder, or (a bare name such as ``NOTATION.md``) the one file of that name."""
    for base in (ROOT, citing.parent):
        candidate = (base / cited).resolve()
        if candidate.is_file() and ROOT in candidate.parents:
            return candidate
    if "/" not in cited:
        named = [p for p in _FILES if p.name == cited]
        if len(named) == 1:
            return named[0]
    return None


_FILES = project_files()
# pages named before they exist: tests/test_docs_links.py keeps the list (and fails once
# one of them exists)
PENDING_PAGES = frozenset({"CONTRIBUTING.md", "SECURITY.md", "CHANGELOG.md", "architecture.md"})


def sections(page: Path) -> set[str]:
    """The numbers of a page's headings: ``## 6. Options`` → 6, ``### 6.3 …`` → 6.3."""
    numbers = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        match = re.match(r"#+\s+(\d+(?:\.\d+)?[a-z]?)[.\s]", line)
        if match:
            numbers.add(match.group(1))
    return numbers


def rule_numbers(page: Path) -> set[str]:
    """The numbered rules of a page (``21. **High**: …``)."""
    return {m.group(1) for m in re.finditer(r"^(\d+)\. ", page.read_text(encoding="utf-8"),
                                            re.MULTILINE)}


def citation_problems(citing: Path, text: str) -> list[str]:
    problems = []
    for match in CITATION.finditer(text):
        page = resolve(match["file"], citing)
        where = f"{citing.relative_to(ROOT)}: {match.group().strip()!r}"
        if page is None:
            problems.append(f"{where} names a file not in the project")
            continue
        is_rule = re.search(r"\.md\)?,?\s+rules?\s", match.group()) is not None
        known = rule_numbers(page) if is_rule else sections(page)
        for number in (match["first"], match["second"]):
            if number is not None and number not in known:
                problems.append(f"{where}: {page.name} has no {'rule' if is_rule else 'section'} "
                                f"{number}")
    for match in NAMED_MD.finditer(text):
        name = match["file"].split("/")[-1]
        if name in PENDING_PAGES or citing.name == "pyproject.toml":
            continue  # a page the documentation work has still to write (its own test)
        if resolve(match["file"], citing) is None:
            problems.append(f"{citing.relative_to(ROOT)} names {match['file']}, not in the "
                            "project")
    return problems


# on the worker where tests/test_architecture.py reads the same sources (their trees shared)
@pytest.mark.xdist_group("source-trees")
def test_every_citation_names_a_file_and_a_section_that_exist() -> None:
    problems = [problem for path, text in texts() for problem in citation_problems(path, text)]
    assert problems == []


def test_option_texts_and_hints_cite_the_rules_page() -> None:
    lines = [*VALUE_SOURCES.values(),
             *(text for profile in PROFILES.values() for text in profile.sources.values())]
    cited = [line for line in lines if ".md" in line]
    assert cited and all("docs/rules.md section" in line for line in cited)
    page = ROOT / "docs" / "rules.md"
    assert {"6.2", "6.3", "6.4", "8", "10"} <= sections(page)


@pytest.mark.parametrize("text", [
    "see RULES.md section 5",  # the notes file of the project's authors: not in the project
    "docs/rules.md section 12",  # no such section
    "docs/rules.md section 6.9",
    "docs/rules.md rule 31",
    "grammar/NOTATION.md §4.19",
])
def test_a_citation_of_a_missing_file_or_section_is_found(text: str) -> None:
    assert citation_problems(ROOT / "docs" / "example.md", text)


def test_the_rules_page_cites_nothing_outside_the_project() -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert citation_problems(ROOT / "docs" / "rules.md", text) == []
    assert re.search(r"(^|[\s(`])/[A-Za-z]", text, re.MULTILINE) is None  # no absolute path
    assert "shared" not in text.lower() and "seed/" not in text
