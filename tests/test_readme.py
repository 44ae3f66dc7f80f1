"""The README's Quick start and .ci/run stay in step."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from tests.test_docs_links import PENDING

ROOT = Path(__file__).resolve().parents[1]


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_quick_start_has_exactly_two_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert all("\n" not in command for command in commands)


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert quick_start_commands()[1] in ci_lines


def test_quick_start_sample_exists() -> None:
    install_and_run = quick_start_commands()[0]
    sample = install_and_run.split()[-1]
    assert (ROOT / sample).is_file(), sample


def test_each_quick_start_command_makes_or_reuses_a_venv_and_runs_from_it() -> None:
    """No system-wide pip: on Debian 12+, Ubuntu and Fedora it is refused."""
    for command in quick_start_commands():
        first, *rest = command.split(" && ")
        assert first == "python3 -m venv .venv"
        assert rest and all(step.startswith(".venv/bin/") for step in rest), command


def test_ci_runs_the_linters_from_the_quick_start_environment() -> None:
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert ".venv/bin/python -m ruff check ." in ci_lines
    assert ".venv/bin/python -m mypy" in ci_lines


def test_every_relative_link_is_in_the_source_distribution() -> None:
    """The README says so (its links do not open on a package index page)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    with (ROOT / "pyproject.toml").open("rb") as handle:
        included = tomllib.load(handle)["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    relative = [link for link in links if "://" not in link]
    assert relative
    for link in relative:
        assert (ROOT / link).exists() or link in PENDING, link
        assert link.split("/")[0] in included, link


def test_the_readme_stays_one_screenful() -> None:
    """What it is, an example, install, a tour, links: the rest belongs under docs/."""
    readme = (ROOT / "README.md").read_bytes()
    assert len(readme) <= 20 * 1024, f"README.md is {len(readme):,} bytes: move detail to docs/"
    headings = re.findall(r"^## (.+)$", readme.decode("utf-8"), re.M)
    for needed in ("Quick start", "Install as a tool", "Documentation", "Reporting a bug",
                   "Contributing", "License"):
        assert needed in headings, needed
