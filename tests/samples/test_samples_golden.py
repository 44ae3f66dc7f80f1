"""Golden tests for the bundled samples (``samples/*.afn``).

For every sample, the exact output of each ``allfours`` subcommand that reports
on a file (``check``, and ``score`` and ``fmt`` once they are registered) is
stored in ``tests/golden/samples/<sample>.<command>.<ext>``.  The commands run
in-process from the repository root with a relative path, so no machine path
ever reaches a golden file, and with colour off.

Rewrite the golden files after an intended change with::

    python -m pytest --update-goldens

then read the diff before committing it.

Beside the goldens, ``EXPECTED`` pins what each sample is *about*: the clean
samples have no error (some have an intended warning), the broken and disputed
ones have exactly the diagnostics their names promise.  Those are checked with
the library (parser + rules referee), independently of the CLI's wording.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from allfours_notation import parse
from allfours_notation.checking import check
from allfours_notation.cli import COMMANDS, main
from allfours_notation.diagnostics import Diagnostic, Severity
from tests.golden import check_golden

ROOT = Path(__file__).resolve().parents[2]
SAMPLES_DIR = ROOT / "samples"
GOLDEN_DIR = ROOT / "tests" / "golden" / "samples"
ABSOLUTE_PATH = re.compile(r"(?:^|[\s'\"(])/[A-Za-z0-9_.-]+/")

SAMPLES = sorted(path.name for path in SAMPLES_DIR.glob("*.afn"))

# subcommand -> (extra arguments before the file, golden file suffix)
GOLDEN_COMMANDS: dict[str, tuple[list[str], str]] = {
    "check": ([], ".check.txt"),
    "score": ([], ".score.txt"),
    "fmt": ([], ".fmt.afn"),
}
REGISTERED = {module.NAME for module in COMMANDS}


@dataclass(frozen=True)
class Expected:
    """What a sample is meant to produce: its errors, disputes and warnings, each as
    (code, game index), compared as multisets."""

    errors: tuple[tuple[str, int], ...] = ()
    warnings: tuple[tuple[str, int], ...] = ()
    disputes: tuple[tuple[str, int], ...] = ()


# Every sample must be listed: a new sample has to say what it is meant to show.
EXPECTED: dict[str, Expected] = {
    "annotated.afn": Expected(),
    "club-night.afn": Expected(),
    "club-results.afn": Expected(),  # results-only deals, checked clean
    "disputed-claim.afn": Expected(
        # deal 1 total off by one: an error of the record; deal 2 Low to the capturer and
        # the total that follows from it, deal 3 Game left out of the claim: disputes
        errors=(("AFN402", 1),),
        disputes=(("AFN401", 1), ("AFN402", 1), ("AFN401", 1)),
    ),
    "discards-after-a-run.afn": Expected(),
    "exhausted-pack.afn": Expected(),
    "four-handed-trinidad.afn": Expected(),
    "lax-input.afn": Expected(),
    "no-hands.afn": Expected(),
    "one-broken-game.afn": Expected(errors=(("AFN101", 2),)),  # 'gmae' in game 2
    "pack-order.afn": Expected(),
    "partial-hands.afn": Expected(),
    "revoke.afn": Expected(warnings=(("AFN306", 1),)),  # the revoke, reported and penalised
    "three-handed.afn": Expected(),
    "tobago-options.afn": Expected(warnings=(("AFN307", 1),)),  # the undertrump, penalised
    "turned-jack-wins.afn": Expected(),
    "two-player-to-seven.afn": Expected(),
    "unfinished.afn": Expected(),
    "worked-example-a.afn": Expected(),
    "single-dummy.afn": Expected(),
}

# Samples whose expectation the current code does not meet, with the reason.
# strict xfail: when the code is fixed the test fails until the mark is removed.
KNOWN_WRONG: dict[str, str] = {}


def golden_cases() -> list[tuple[str, str]]:
    return [
        (sample, command)
        for sample in SAMPLES
        for command in GOLDEN_COMMANDS
        if command in REGISTERED
    ]


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str],
            monkeypatch: pytest.MonkeyPatch) -> Run:
    """Run ``allfours ARGS`` in-process from the repository root, colour off."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    capsys.readouterr()
    code = main(args)
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


@pytest.mark.parametrize(("sample", "command"), golden_cases())
def test_golden_output(sample: str, command: str, capsys: pytest.CaptureFixture[str],
                       monkeypatch: pytest.MonkeyPatch, update_goldens: bool) -> None:
    """stdout in ``<sample>.<command>.<ext>``; stderr, when there is any, in
    ``<sample>.<command>.stderr.txt``."""
    extra, suffix = GOLDEN_COMMANDS[command]
    run = run_cli([command, *extra, f"samples/{sample}"], capsys, monkeypatch)
    stem = sample.removesuffix(".afn")
    check_golden(run.out, GOLDEN_DIR / (stem + suffix), update=update_goldens)
    check_golden(run.err, GOLDEN_DIR / f"{stem}.{command}.stderr.txt", update=update_goldens,
                 optional=True)


def test_golden_files_have_a_sample_and_no_machine_path() -> None:
    """A golden file whose sample or command is gone is stale; none holds a path
    of the machine that wrote it."""
    known = {sample.removesuffix(".afn") + name
             for sample in SAMPLES for command, (_, suffix) in GOLDEN_COMMANDS.items()
             for name in (suffix, f".{command}.stderr.txt")}
    for golden in GOLDEN_DIR.iterdir():
        assert golden.name in known, f"stale golden file {golden.name}"
        text = golden.read_text(encoding="utf-8")
        assert str(ROOT) not in text
        assert not ABSOLUTE_PATH.search(text), f"{golden.name} holds an absolute path"


def test_every_sample_has_an_expectation() -> None:
    assert sorted(EXPECTED) == SAMPLES


def referee(sample: str, directory: Path = SAMPLES_DIR) -> list[Diagnostic]:
    """Every diagnostic of a sample: the parser's, then for each game that could be
    read what the one door says of it (the referee's, explained: a total that
    follows from a disputed claim is the dispute too)."""
    text = (directory / sample).read_text(encoding="utf-8")
    result = parse(text, filename=f"samples/{sample}")
    found = [d for d in result.diagnostics if d.game is None]
    for game in result.games:
        found.extend(check(game).diagnostics if not game.broken else game.diagnostics)
    return found


def expectation_cases() -> list[object]:
    return [
        pytest.param(sample, marks=pytest.mark.xfail(strict=True, reason=KNOWN_WRONG[sample]))
        if sample in KNOWN_WRONG else sample
        for sample in SAMPLES
    ]


@pytest.mark.parametrize("sample", expectation_cases())
def test_sample_has_exactly_the_expected_diagnostics(sample: str) -> None:
    found = referee(sample)
    errors = Counter((d.code, d.game) for d in found if d.severity is Severity.ERROR)
    warnings = Counter((d.code, d.game) for d in found if d.severity is Severity.WARNING)
    disputes = Counter((d.code, d.game) for d in found if d.severity is Severity.DISPUTE)
    wanted = EXPECTED[sample]
    detail = "\n".join(f"{d.line}:{d.column} {d.code} {d.message}" for d in found)
    assert errors == Counter(wanted.errors), detail
    assert warnings == Counter(wanted.warnings), detail
    assert disputes == Counter(wanted.disputes), detail


@pytest.mark.parametrize("sample", SAMPLES)
def test_check_exit_status(sample: str, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """``allfours check --json`` agrees with the parser on syntax and structure,
    and exits 1 exactly when it reports an error, 3 when it reports disputes and no
    error, 0 otherwise."""
    run = run_cli(["check", "--json", f"samples/{sample}"], capsys, monkeypatch)
    code = run.code
    report = json.loads(run.out)
    errors = [d["code"] for d in report["diagnostics"] if d["severity"] == "error"]
    disputes = [d["code"] for d in report["diagnostics"] if d["severity"] == "dispute"]
    assert code == (1 if errors else 3 if disputes else 0)
    assert report["errors"] == len(errors) and report["disputes"] == len(disputes)
    parser_errors = [d.code for d in parse((SAMPLES_DIR / sample).read_bytes()).diagnostics
                     if d.is_error]
    assert Counter(parser_errors) <= Counter(errors)


def test_broken_sample_keeps_its_good_games() -> None:
    """The broken game costs only itself: games 1 and 3 are read in full."""
    result = parse((SAMPLES_DIR / "one-broken-game.afn").read_bytes())
    assert [game.broken for game in result.games] == [False, True, False]
    assert all(game.deals for game in result.games if not game.broken)


def test_broken_sample_error_points_at_the_typo() -> None:
    text = (SAMPLES_DIR / "one-broken-game.afn").read_text(encoding="utf-8")
    line_number, line = next((n, line) for n, line in enumerate(text.splitlines(), start=1)
                             if line.lstrip().startswith("claim") and "gmae" in line)
    (error,) = [d for d in parse(text).diagnostics if d.is_error]
    assert (error.game, error.deal) == (2, 2)
    assert (error.line, error.column) == (line_number, line.index("gmae") + 1)


@pytest.mark.skipif("fmt" not in REGISTERED, reason="no fmt subcommand yet")
@pytest.mark.parametrize("sample", SAMPLES)
def test_canonical_form_means_the_same(sample: str, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The formatted sample (its golden file) is a fixed point of ``fmt`` and the
    referee finds in it exactly what it finds in the sample."""
    golden = GOLDEN_DIR / (sample.removesuffix(".afn") + GOLDEN_COMMANDS["fmt"][1])
    run = run_cli(["fmt", str(golden.relative_to(ROOT))], capsys, monkeypatch)
    assert run.out == golden.read_text(encoding="utf-8")

    def summary(found: list[Diagnostic]) -> Counter[tuple[str, str]]:
        return Counter((d.code, d.severity.value) for d in found)

    assert summary(referee(golden.name, GOLDEN_DIR)) == summary(referee(sample))


def first_comment(text: str) -> str:
    """The text of the first comment of a record (``{ … }`` or ``; …``), outside the
    quoted tag values; empty when it has none."""
    quoted = False
    for index, char in enumerate(text):
        if char == '"' and text[index - 1:index] != "\\":
            quoted = not quoted
        elif not quoted and char == "{":
            return text[index + 1:text.find("}", index)]
        elif not quoted and char == ";":
            return text[index + 1:text.find("\n", index)]
    return ""


NOT_CANONICAL = "not canonical on purpose"


@pytest.mark.skipif("fmt" not in REGISTERED, reason="no fmt subcommand yet")
@pytest.mark.parametrize("sample", SAMPLES)
def test_a_sample_is_canonical_or_its_first_comment_says_why(
        sample: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # issue 37: 14 of 19 samples were not as `allfours fmt` writes them, and said nothing
    text = (SAMPLES_DIR / sample).read_text(encoding="utf-8")
    says_why = NOT_CANONICAL in " ".join(first_comment(text).lower().split())
    run = run_cli(["fmt", "--check", f"samples/{sample}"], capsys, monkeypatch)
    assert (run.code != 0) == says_why, (sample, run.code, run.out + run.err)


def test_three_samples_are_not_canonical_on_purpose() -> None:
    lax = [name for name in SAMPLES if NOT_CANONICAL in " ".join(
        first_comment((SAMPLES_DIR / name).read_text(encoding="utf-8")).lower().split())]
    assert lax == ["lax-input.afn", "no-hands.afn", "one-broken-game.afn"]
    assert first_comment('[Event "a { b"] ; c\n') == " c"
