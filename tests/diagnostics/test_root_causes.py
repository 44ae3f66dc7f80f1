"""One slip, one root: hand-made records with one slip each, and the linking rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allfours_notation.checking import check_file as file_diagnostics
from allfours_notation.checking.causes import Group, follow_text, link_causes, roots_first
from allfours_notation.cli import main
from allfours_notation.diagnostics import Diagnostic, Severity, sort_key
from allfours_notation.reading.parser import read_games

ROOT = Path(__file__).resolve().parents[2]
CLEAN = (ROOT / "samples" / "two-player-to-seven.afn").read_text(encoding="utf-8")
BARE = (ROOT / "samples" / "no-hands.afn").read_text(encoding="utf-8")


def _line_of(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _checked(tmp_path: Path, text: str,
             capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    path = tmp_path / "slip.afn"
    path.write_text(text, encoding="utf-8")
    assert main(["check", "--json", str(path)]) == 1
    found: list[dict[str, object]] = json.loads(capsys.readouterr().out)["diagnostics"]
    return found


# (name, text with the slip, text on the line the root must point at, code, words of the hint)
SLIPS = [
    ("missing card, hands known", CLEAN.replace("3. N:9H S:4S", "3. N:9H"), "3. N:9H",
     "AFN221", "S still holds 4S"),
    ("extra card", CLEAN.replace("2. N:7C S:4C", "2. N:7C S:4C N:5H"), "2. N:7C S:4C N:5H",
     "AFN222", "delete 5H"),
    ("card written twice", CLEAN.replace("4. S:2D N:QD", "4. S:2D S:2D N:QD"),
     "4. S:2D S:2D N:QD", "AFN223", "delete this 2D"),
    ("swapped pair", CLEAN.replace("5. N:QH S:QS", "5. S:QS N:QH"), "5. S:QS N:QH",
     "AFN224", "before"),
    ("wrong seat label", CLEAN.replace("6. S:JD N:JC", "6. S:JD S:JC"), "6. S:JD S:JC",
     "AFN225", "N:JC"),
    ("missing card, no hands", BARE.replace("N:8C S:3C", "S:3C"), "N:AH S:6H  S:3C",
     "AFN221", "N played in trick 5"),
    ("rank changed, hands known", CLEAN.replace("3. N:9H S:4S", "3. N:9H S:5S"),
     "3. N:9H S:5S", "AFN226", "write 4S for 5S"),
    # KS is played in trick 5 too: with no hands, any unseen spade here checks clean
    ("rank changed to a card played later, no hands",
     BARE.replace("1. N:3S S:9S", "1. N:3S S:KS"), "1. N:3S S:KS", "AFN226",
     "write the card played here"),
    ("digit typo in a total", CLEAN.replace("total N 4 S 4", "total N 4 S 14"),
     "total N 4 S 14", "AFN402", "S 14 looks like a typo for S 4"),
    ("missing number", CLEAN.replace("total N 4 S 4", "total N 4 S"), "total N 4 S",
     "AFN101", "S's running score"),
]


@pytest.mark.parametrize(("name", "text", "line", "code", "hint"), SLIPS,
                         ids=[s[0] for s in SLIPS])
def test_one_slip_gives_one_root_on_the_slipped_line(
    name: str, text: str, line: str, code: str, hint: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert text != CLEAN and text != BARE, name
    found = _checked(tmp_path, text, capsys)
    roots = [d for d in found if d["cause"] is None]
    assert len(roots) == 1, [(d["code"], d["message"]) for d in roots]
    (root,) = roots
    assert root["code"] == code
    assert root["line"] == _line_of(text, line)
    assert hint in str(root["hint"])
    ids = {d["id"] for d in found}
    assert all(d["cause"] in ids for d in found if d["cause"] is not None)


def test_a_slip_never_becomes_a_penalty_root(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """An extra card makes a false revoke, a penalty dispute and a [Result] mismatch:
    all of them fold under the slip."""
    text = CLEAN.replace("2. N:7C S:4C", "2. N:7C S:4C N:5H")
    found = _checked(tmp_path, text, capsys)
    codes = {str(d["code"]) for d in found if d["cause"] is not None}
    assert codes  # there are consequences …
    assert all(d["code"] == "AFN222" for d in found if d["cause"] is None)  # … and one root


def test_check_prints_roots_first_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "slip.afn"
    path.write_text(BARE.replace("N:8C S:3C", "S:3C"), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    first = out.splitlines()[0]
    assert "AFN221" in first and "N's card seems to be missing" in first
    assert "that follow from it (--all shows them)" in out
    assert "AFN303" not in out and "root cause)" in out.splitlines()[-1]
    assert main(["check", "--all", str(path)]) == 1
    every = capsys.readouterr().out
    assert every.count("↳ ") >= 3 and "AFN303" in every


def test_clean_files_print_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "clean.afn"
    path.write_text(CLEAN, encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out == "1 game, 0 with errors\n"


def _d(code: str, line: int, deal: int | None = None, severity: Severity = Severity.ERROR,
       message: str = "m") -> Diagnostic:
    return Diagnostic(code, severity, message, line=line, column=1, game=1, deal=deal)


def test_linking_rules() -> None:
    linked = link_causes([
        _d("AFN403", 8),  # [Result]: follows from the first root in a deal
        _d("AFN303", 20, deal=2),  # a lead out of turn after the recording root
        _d("AFN204", 18, deal=2),  # the deal's recording root (first in file order)
        _d("AFN306", 21, deal=2, severity=Severity.WARNING),  # a revoke in a slipped deal
        _d("AFN401", 30, deal=3),  # a disputed claim in a clean deal: a root
        _d("AFN402", 31, deal=3),  # its total follows from it
        _d("AFN312", 17, deal=2, severity=Severity.WARNING),  # dealer rotation: its own root
    ], first_id=10)
    by_code = {d.code: d for d in linked}
    assert [d.id for d in linked] == list(range(10, 17))  # numbered in file order
    root = by_code["AFN204"]
    assert root.cause is None
    assert by_code["AFN303"].cause == root.id and by_code["AFN306"].cause == root.id
    assert by_code["AFN403"].cause == root.id
    assert by_code["AFN401"].cause is None and by_code["AFN402"].cause == by_code["AFN401"].id
    assert by_code["AFN312"].cause is None
    groups = roots_first(linked)
    assert [g.root.code for g in groups] == ["AFN312", "AFN204", "AFN401"]
    assert follow_text(groups[1]) == "and 2 errors and 1 warning that follow from it"
    assert follow_text(groups[2]) == "and 1 error that follows from it"
    assert follow_text(Group(root)) == ""


def test_roots_first_links_what_is_not_linked_yet() -> None:
    groups = roots_first([_d("AFN201", 3, deal=1), _d("AFN301", 4, deal=1)])
    assert len(groups) == 1 and len(groups[0].consequences) == 1


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(CLEAN) - 1), st.integers(1, 6),
                          st.sampled_from(["", " ", "S:", "QS ", "9", "\n", "N:2C "])),
                min_size=1, max_size=3))
def test_any_damage_gives_linked_diagnostics_never_a_traceback(
    edits: list[tuple[int, int, str]],
) -> None:
    """Cut and paste anywhere: every diagnostic is numbered, every cause is a root of the
    same game, and the roots come in file order."""
    text = CLEAN
    for at, length, new in edits:
        text = text[:at] + new + text[at + length:]
    reader = read_games(text)
    for diagnostics, _ in file_diagnostics(reader, (None, {})):
        ids = {d.id: d for d in diagnostics}
        assert None not in ids
        for diagnostic in diagnostics:
            if diagnostic.cause is not None:
                root = ids[diagnostic.cause]
                assert root.cause is None and root.game == diagnostic.game
        roots = [group.root for group in roots_first(diagnostics)]
        assert roots == sorted(roots, key=sort_key)


def test_every_slipped_deal_is_named_and_the_search_has_a_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (CLEAN.replace("3. N:9H S:4S", "3. N:9H")  # deal 1: a card missing
            .replace("2. S:AH N:3H", "2. S:AH S:3H")  # deal 2: a wrong label
            .replace("5. S:8C N:KC", "5. S:8C N:KC N:KC"))  # deal 3: a card twice
    found = _checked(tmp_path, text, capsys)
    assert [d["code"] for d in found if d["cause"] is None] == ["AFN221", "AFN225", "AFN223"]
    # with no trials left the deals keep their first recording finding as the root
    from allfours_notation.checking import slips

    monkeypatch.setattr(slips, "MAX_TRIALS", 0)
    found = _checked(tmp_path, text, capsys)
    roots = [d for d in found if d["cause"] is None]
    assert len(roots) == 3 and not {"AFN221", "AFN223", "AFN225"} & {d["code"] for d in roots}


def test_a_tag_inside_a_game_is_reported_at_the_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = CLEAN.replace("deal 2 dealer S", '[Note "South to deal"]\ndeal 2 dealer S')
    path = tmp_path / "tag.afn"
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    headlines = [line for line in out.splitlines() if ": warning " in line or ": error " in line]
    assert len(headlines) == 2
    assert "AFN104" in headlines[0]  # game 1 ends without 'end' …
    line = _line_of(text, '[Note "South to deal"]')
    assert f":{line}:1: warning AFN214" in headlines[1]  # … because of this tag
    assert "this tag starts a new game, whose first deal is deal 2" in headlines[1]


def test_a_total_error_carried_on_is_one_root(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """S's total is one too many from deal 1 on: the later totals carry that error."""
    text = (CLEAN.replace("total N 1 S 3", "total N 1 S 4")
            .replace("total N 4 S 4", "total N 4 S 5")
            .replace("total N 6 S 5", "total N 6 S 6"))
    found = _checked(tmp_path, text, capsys)
    assert [d["code"] for d in found] == ["AFN402", "AFN402", "AFN402"]
    first, *later = found
    assert first["cause"] is None and all(d["cause"] == first["id"] for d in later)
    # a new error in a later total is a root of its own
    found = _checked(tmp_path, text.replace("total N 6 S 6", "total N 7 S 6"), capsys)
    assert [d["cause"] is None for d in found] == [True, False, True]


def test_linked_copies_every_field_but_id_and_cause() -> None:
    from dataclasses import fields

    from allfours_notation.diagnostics import Diagnostic, Severity

    values: dict[str, object] = {f.name: f"value of {f.name}" for f in fields(Diagnostic)}
    values["severity"] = Severity.WARNING
    original = Diagnostic(**values)  # type: ignore[arg-type]
    copy = original.linked(7, 3)
    for f in fields(Diagnostic):
        expected = {"id": 7, "cause": 3}.get(f.name, values[f.name])
        assert getattr(copy, f.name) == expected, f.name


def test_the_constructor_sets_every_field_by_name_and_in_field_order() -> None:
    """``Diagnostic.__init__`` is written out (it sets the slots directly): its
    parameters are the fields, in order, with the fields' defaults."""
    import inspect
    from dataclasses import MISSING, fields

    from allfours_notation.diagnostics import Diagnostic, Severity

    every = fields(Diagnostic)
    parameters = list(inspect.signature(Diagnostic.__init__).parameters.values())[1:]
    assert [p.name for p in parameters] == [f.name for f in every]
    assert [p.default for p in parameters] == \
        [inspect.Parameter.empty if f.default is MISSING else f.default for f in every]
    values: list[object] = [f"value of {f.name}" for f in every]
    values[1] = Severity.INFO
    by_position = Diagnostic(*values)  # type: ignore[arg-type]
    by_name = Diagnostic(**{f.name: value for f, value in zip(every, values, strict=True)})  # type: ignore[arg-type]
    for f, value in zip(every, values, strict=True):
        assert getattr(by_position, f.name) == value == getattr(by_name, f.name), f.name
    assert by_position == by_name and hash(by_position) == hash(by_name)
