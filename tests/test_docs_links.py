"""Every relative link of the README and the pages under docs/ leads somewhere.

A link's file must exist inside the repository; a link with ``#anchor`` must name a heading
of its target (or of the page itself for ``#anchor`` alone) as GitHub spells heading
anchors.  Links inside code (fenced blocks and `code spans`) are text, not links.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Pages that other work in progress is writing, linked already from the README and docs/.
# While one is missing a link to it is allowed; once it exists it must leave this set (a test
# below says so), so that from then on a link to it is checked like any other.
PENDING: frozenset[str] = frozenset()

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.M)
_INLINE_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def documents() -> list[Path]:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    pages += [ROOT / name for name in ("CONTRIBUTING.md", "CHANGELOG.md", "SECURITY.md")
              if (ROOT / name).is_file()]
    return pages


def prose(text: str) -> str:
    """``text`` without fenced code blocks and code spans (blanked, so offsets stay)."""
    text = _FENCE.sub(lambda match: re.sub(r"[^\n]", " ", match.group()), text)
    return _CODE_SPAN.sub(lambda match: " " * len(match.group()), text)


def links(text: str) -> list[str]:
    return _LINK.findall(prose(text))


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text (code marks, emphasis and link targets
    dropped) in lower case, every character but letters, digits, '_', '-' and spaces
    removed, each space a hyphen."""
    text = _INLINE_LINK.sub(r"\1", heading).replace("`", "").replace("*", "")
    text = text.strip().lower()
    kept = "".join(ch for ch in text if ch.isalnum() or ch in "_- ")
    return kept.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a Markdown page, with GitHub's -1, -2 … for repeats."""
    seen: dict[str, int] = {}
    found = set()
    without_code = _FENCE.sub(lambda match: re.sub(r"[^\n]", " ", match.group()), text)
    for _, heading in _HEADING.findall(without_code):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def is_relative(link: str) -> bool:
    return not re.match(r"[a-z][a-z0-9+.-]*:", link, re.I)


def broken_links(page: Path, text: str | None = None) -> list[str]:
    """The relative links of ``page`` that lead nowhere; ``text`` stands in for the page's
    own text when given, so a test can check made-up text as if it were at ``page`` without
    writing into the tree (a file written into docs/ would be seen by the other tests)."""
    own_text = page.read_text(encoding="utf-8") if text is None else text
    problems = []
    for link in links(own_text):
        if not is_relative(link):
            continue
        path_part, _, anchor = link.partition("#")
        target = (page.parent / path_part).resolve() if path_part else page
        try:
            relative = target.relative_to(ROOT).as_posix()
        except ValueError:
            problems.append(f"{link}: outside the repository")
            continue
        if not target.exists():
            if relative not in PENDING:
                problems.append(f"{link}: no such file ({relative})")
            continue
        if anchor:
            target_text = own_text if target == page else None
            if target.suffix != ".md" or not target.is_file():
                problems.append(f"{link}: an anchor into a file that is not Markdown")
            elif anchor not in anchors(target_text or target.read_text(encoding="utf-8")):
                problems.append(f"{link}: {relative} has no heading with the anchor #{anchor}")
    return problems


@pytest.mark.parametrize("page", documents(), ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    assert broken_links(page) == []


def test_the_readme_and_docs_link_into_docs() -> None:
    readme = links((ROOT / "README.md").read_text(encoding="utf-8"))
    assert sum(link.startswith("docs/") for link in readme) >= 10
    index = links((ROOT / "docs" / "index.md").read_text(encoding="utf-8"))
    listed = {(ROOT / "docs" / link.partition("#")[0]).resolve() for link in index}
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert page == ROOT / "docs" / "index.md" or page.resolve() in listed, \
            f"docs/index.md does not list {page.name}"


def test_a_pending_page_leaves_the_list_once_it_exists() -> None:
    landed = sorted(name for name in PENDING if (ROOT / name).exists())
    assert landed == [], f"remove {landed} from PENDING in tests/test_docs_links.py"


def test_the_checker_finds_a_broken_file_and_a_broken_anchor() -> None:
    """The checks above can fail: a missing file, a missing heading, a missing heading of the
    page itself, a link in code ignored."""
    text = ("# Here\n[ok](tutorial.md#1-record-a-game) [gone](no-such-page.md) "
            "[bad](tutorial.md#no-such-heading) [self](#here) [no](#not-here) "
            "`[code](not-a-link.md)`\n```\n[fenced](not-a-link-either.md)\n```\n")
    found = links(text)
    assert found == ["tutorial.md#1-record-a-game", "no-such-page.md",
                     "tutorial.md#no-such-heading", "#here", "#not-here"]
    problems = broken_links(ROOT / "docs" / "index.md", text)
    assert len(problems) == 3
    assert "no-such-page.md" in problems[0] and "#no-such-heading" in problems[1]
    assert "#not-here" in problems[2]


@pytest.mark.parametrize(("heading", "anchor"), [
    ("4.1a The order of the pack (optional)", "41a-the-order-of-the-pack-optional"),
    ("In the editor: `allfours lsp` and syntax highlighting",
     "in-the-editor-allfours-lsp-and-syntax-highlighting"),
    ("export --sqlite and --csv", "export---sqlite-and---csv"),
    ("Slip corpus: one mistake, one error", "slip-corpus-one-mistake-one-error"),
    ("AFN 1 — All Fours Notation", "afn-1--all-fours-notation"),
    ("See [the spec](x.md) **now**", "see-the-spec-now"),
])
def test_slugs_follow_github(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor


def test_a_repeated_heading_gets_a_number() -> None:
    assert anchors("# Usage\n## Usage\n```\n# not a heading\n```\n## Usage\n") == \
        {"usage", "usage-1", "usage-2"}
