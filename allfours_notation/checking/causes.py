"""Root causes and their consequences: one mistake should read as one error.

A single slip in a record (a card left out of a trick) makes many true findings:
later leads out of turn, a trick of the wrong size, a revoke, a claim and every
later total that disagree, a ``[Result]`` that names the other side.  This
module links each finding to the root it follows from, so that tools show the
root first and fold the rest under it (``allfours check`` prints "and 6 errors
that follow from it"; ``--all`` prints them).

The links are data on :class:`~allfours_notation.diagnostics.Diagnostic`: ``id``
(unique in one run) and ``cause`` (the root's ``id``, or ``None`` for a root).
:func:`link_causes` is a pure function of one game's diagnostics (and, when
there is one, its replay, to follow running totals); the language server and
the viewer use it as ``check`` does.

The rules, in order:

0. In a "game" begun by a tag written inside another game (AFN214), every other
   finding follows from that tag.

1. In a deal whose text is not a possible deal (a recording finding: a card
   dealt or played twice, a card not held, a trick of the wrong size, a play out
   of turn; or a slip named by :mod:`.slips`), the first such finding is the
   root (a named slip first of all), and every other finding of that deal
   (rules of play, claim, total) follows from it.
2. In another deal, a total that disagrees follows from the deal's disputed claim, and
   the claim's other disputed items from its first (one claim, one root).
3. A total that is off by what the previous written total was already off by
   carries an earlier error: it follows from that total's root.
4. Items claimed after the decision (a note, AFN408) follow from the earliest recording
   root in a deal before theirs (it moved the decision).  A ``[Result]`` that
   disagrees, and "played after the game was decided", follow from the earliest root
   found in a deal, else from a missing ``end`` (the game was
   cut short), else from the first error or dispute in a deal.

A claim, a total or a ``[Result]`` that follows from a root takes its root's kind
(:func:`settled_kind`): under a dispute (a claim the record keeps faithfully,
``Severity.DISPUTE``) the totals and the ``[Result]`` it makes wrong are the dispute
too, not errors of the record; under an error (a slip) the claim it makes wrong is
that error's consequence, not a dispute of the players.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..diagnostics import Diagnostic, Severity, sort_key
from ..frozen import frozen
from ..reading.records import Deal, Game
from ..reading.table import side_of
from ..referee.state import GameReplay
from .slip_codes import NOT_FROM_A_DEAL_SLIP, RECORDING_CODES, SEARCHED_CODES, SlipKind

SLIP_CODES = frozenset(kind.value for kind in SlipKind)
GAME_LEVEL_CONSEQUENCES = frozenset({"AFN403", "AFN313"})
# Items claimed after the decision (a note): a recording root in an earlier deal, which
# moved the decision, explains it.
LATE_CLAIM_CODES = frozenset({"AFN408"})
# A tag inside a game began a new one (structure.py): the rest of that "game" is an artefact.
SPLIT_GAME_CODES = frozenset({"AFN214"})
# A game none of whose findings has one of these codes (and no slip's fix to follow)
# has nothing to link: rule 0 needs a split, rule 1 a recording finding or a slip,
# rules 2 and 3 a claim or a total, rule 4 a game-level consequence.
LINKING_CODES = SPLIT_GAME_CODES | SLIP_CODES | RECORDING_CODES | GAME_LEVEL_CONSEQUENCES | \
    LATE_CLAIM_CODES | frozenset({"AFN401", "AFN402"})
# What the players wrote against the computed score: a consequence of these takes the kind
# of its root (a dispute or an error; see settled_kind).
SCORE_CODES = frozenset({"AFN401", "AFN402", "AFN403"})
_WEIGHTY = (Severity.ERROR, Severity.DISPUTE)


@frozen
class Group:
    """A root and the findings that follow from it, each in file order."""

    root: Diagnostic
    consequences: tuple[Diagnostic, ...] = ()


def explain(replayed: GameReplay, diagnostics: Sequence[Diagnostic], *,
            first_id: int = 1) -> tuple[Diagnostic, ...]:
    """A game's diagnostics with the probable slips named (:mod:`.slips`) and linked."""
    codes = {d.code for d in diagnostics}  # one pass, for both questions below
    if SEARCHED_CODES.isdisjoint(codes):  # no slip to look for (nearly every game)
        if LINKING_CODES.isdisjoint(codes):  # and nothing to link: each is a root
            return _numbered(sorted(diagnostics, key=sort_key), first_id)
        return link_causes(diagnostics, replayed, first_id=first_id)
    from .slips import find_slips  # only a game with a finding to search from needs it

    findings = find_slips(replayed, diagnostics)
    return link_causes(findings.diagnostics, replayed, first_id=first_id,
                       follows=findings.follows)


def link_causes(diagnostics: Iterable[Diagnostic], replayed: GameReplay | None = None, *,
                first_id: int = 1,
                follows: Iterable[tuple[Diagnostic, Diagnostic]] = ()) -> tuple[Diagnostic, ...]:
    """Every diagnostic of one game, in file order, with ``id`` and ``cause`` set.

    ``follows`` pairs (consequence, root) known from elsewhere: the findings a
    named slip's fix made go away when the game was replayed (:mod:`.slips`)."""
    ordered = list(diagnostics)  # a finding's id is first_id + its place in file order
    if len(ordered) < 2:  # one finding (a file of 'end end …' is all such games)
        return _numbered(ordered, first_id)
    ordered.sort(key=sort_key)
    causes = _causes(ordered, replayed, tuple(follows))
    if not causes:
        return _numbered(ordered, first_id)
    linked = []
    for p, d in enumerate(ordered):  # each finding copied once, with its id and its root's
        if p not in causes:
            linked.append(d.linked(first_id + p, None))
            continue
        root = _root_of(p, causes)
        kind = settled_kind(d, ordered[root])
        if kind is not d.severity:
            d = d.located(severity=kind)
        linked.append(d.linked(first_id + p, first_id + root))
    return tuple(linked)


def settled_kind(diagnostic: Diagnostic, root: Diagnostic) -> Severity:
    """The severity of ``diagnostic``, which follows from ``root``: a claim, total or
    ``[Result]`` (error or dispute) is what its root is, when that is an error or a
    dispute; anything else keeps its own."""
    if diagnostic.code in SCORE_CODES and diagnostic.severity in _WEIGHTY and \
            root.severity in _WEIGHTY:
        return root.severity
    return diagnostic.severity


def _numbered(ordered: Sequence[Diagnostic], first_id: int) -> tuple[Diagnostic, ...]:
    """Findings in file order, every one a root: each copied once, with its id."""
    if len(ordered) == 1:
        return (ordered[0].linked(first_id, None),)
    return tuple([d.linked(first_id + p, None) for p, d in enumerate(ordered)])


def _causes(ordered: Sequence[Diagnostic], replayed: GameReplay | None,
            follows: Sequence[tuple[Diagnostic, Diagnostic]]) -> dict[int, int]:
    """The rules, over one game's findings in file order: place → place of what it
    follows from (its root, or a step towards it)."""
    if not follows and LINKING_CODES.isdisjoint(d.code for d in ordered):
        return {}  # no rule applies: every finding is a root (tiny games are mostly this)
    split = next((p for p, d in enumerate(ordered) if d.code in SPLIT_GAME_CODES), None)
    if split is not None:  # a game begun by a stray tag: everything in it follows from that
        return {p: split for p in range(len(ordered)) if p != split}
    causes: dict[int, int] = {}
    deal_roots = _deal_roots(ordered)
    for position, diagnostic in enumerate(ordered):
        root = deal_roots.get(diagnostic.deal) if diagnostic.deal is not None else None
        if root is not None and root != position and _follows_deal_slip(diagnostic):
            causes[position] = root
    _link_known(ordered, causes, follows)
    _link_claims_and_totals(ordered, causes, deal_roots, replayed)
    _link_game_level(ordered, causes, deal_roots)
    return causes


def roots_first(diagnostics: Sequence[Diagnostic]) -> list[Group]:
    """Roots in file order, each with its consequences; links are made if missing."""
    linked = diagnostics if all(d.id is not None for d in diagnostics) else \
        link_causes(diagnostics)
    followers: dict[int, list[Diagnostic]] = {}
    for diagnostic in linked:
        if diagnostic.cause is not None:
            followers.setdefault(diagnostic.cause, []).append(diagnostic)
    return [Group(d, tuple(followers.get(d.id or 0, ()))) for d in linked if d.cause is None]


def follow_text(group: Group) -> str:
    """``and 6 errors that follow from it`` (warnings and errors counted apart)."""
    errors = sum(1 for d in group.consequences if d.is_error)
    disputes = sum(1 for d in group.consequences if d.is_dispute)
    others = len(group.consequences) - errors - disputes
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''}")
    if disputes:
        parts.append(f"{disputes} dispute{'s' if disputes != 1 else ''}")
    if others:
        parts.append(f"{others} warning{'s' if others != 1 else ''}")
    verb = "follow" if len(group.consequences) != 1 else "follows"
    return f"and {' and '.join(parts)} that {verb} from it" if parts else ""


# --- the rules -----------------------------------------------------------------------------------


def _follows_deal_slip(diagnostic: Diagnostic) -> bool:
    return diagnostic.code not in NOT_FROM_A_DEAL_SLIP


def _deal_roots(numbered: Sequence[Diagnostic]) -> dict[int, int]:
    """Per deal, the position of its recording root: a named slip, else the first finding
    that says the text is not a possible deal."""
    roots: dict[int, int] = {}
    for position, diagnostic in enumerate(numbered):
        if diagnostic.deal is None:
            continue
        if diagnostic.code in SLIP_CODES:
            current = roots.get(diagnostic.deal)
            if current is None or numbered[current].code not in SLIP_CODES:
                roots[diagnostic.deal] = position
        elif diagnostic.code in RECORDING_CODES and diagnostic.is_error:
            roots.setdefault(diagnostic.deal, position)
    return roots


def _key(diagnostic: Diagnostic) -> tuple[str, int | None, int | None, str]:
    return diagnostic.code, diagnostic.line, diagnostic.column, diagnostic.message


def _link_known(numbered: Sequence[Diagnostic], causes: dict[int, int],
                follows: Iterable[tuple[Diagnostic, Diagnostic]]) -> None:
    position_of = {_key(d): p for p, d in enumerate(numbered)}
    for consequence, root in follows:
        mine, theirs = position_of.get(_key(consequence)), position_of.get(_key(root))
        if mine is not None and theirs is not None and mine != theirs and mine not in causes:
            causes[mine] = theirs


def _link_claims_and_totals(numbered: Sequence[Diagnostic], causes: dict[int, int],
                            deal_roots: dict[int, int], replayed: GameReplay | None) -> None:
    """Rules 2 and 3: a total follows from its deal's disputed claim, or carries the error
    of the previous total."""
    claims: dict[int, int] = {}
    totals: dict[int, int] = {}
    for position, diagnostic in enumerate(numbered):
        if diagnostic.deal is None:
            continue
        if diagnostic.code == "AFN401":
            first = claims.setdefault(diagnostic.deal, position)
            if first != position and position not in causes and \
                    numbered[first].line == diagnostic.line:
                causes[position] = first  # one claim, one disagreement: its other items

        elif diagnostic.code == "AFN402":
            totals[diagnostic.deal] = position
    for deal, position in totals.items():
        if position in causes:
            continue
        if deal in claims:
            causes[position] = claims[deal]
            continue
        if replayed is not None:  # off by what the previous total was off by: carried
            earlier = _carried_from(deal, totals, replayed)
            if earlier is not None:
                causes[position] = earlier
        elif deal not in deal_roots:  # no replay to compare with: an earlier root explains it
            earliest = _earliest_deal_root(deal_roots, before=deal)
            if earliest is not None:
                causes[position] = earliest


def _carried_from(deal_number: int, totals: dict[int, int], replayed: GameReplay) -> int | None:
    """The position of the previous disputed total when this one is off by the same."""
    deals = replayed.game.deals
    position = next((i for i, d in enumerate(deals) if d.number == deal_number), None)
    if position is None:
        return None
    mine = _offset(replayed, position)
    for earlier in range(position - 1, -1, -1):
        if deals[earlier].total is None:
            continue
        if deals[earlier].number not in totals:
            return None  # the previous total was right: the error is new here
        return totals[deals[earlier].number] if _offset(replayed, earlier) == mine else None
    return None


def _offset(replayed: GameReplay, position: int) -> dict[str, int]:
    """Written minus computed, per side, for the total of the deal at ``position``."""
    game: Game = replayed.game
    deal: Deal = game.deals[position]
    if deal.total is None or position >= len(replayed.deals):
        return {}
    computed = replayed.deals[position]
    seats = tuple(seat for seat, _ in computed.held) or game.seats
    actual = dict(computed.scores_after)
    return {side_of(s.seat, seats): s.points - actual.get(side_of(s.seat, seats), 0)
            for s in deal.total.scores}


def _earliest_deal_root(deal_roots: dict[int, int], *, before: int | None) -> int | None:
    """The position of the first recording root, in a deal before ``before`` if given."""
    chosen = [p for deal, p in deal_roots.items() if before is None or deal < before]
    return min(chosen) if chosen else None


def _link_game_level(numbered: Sequence[Diagnostic], causes: dict[int, int],
                     deal_roots: dict[int, int]) -> None:
    """The ``[Result]`` and "after the game was decided" follow from the earliest root in
    a deal: a recording root, else the first error of any deal (a disputed claim)."""
    for position, diagnostic in enumerate(numbered):
        if diagnostic.code in LATE_CLAIM_CODES and position not in causes:
            before = _earliest_deal_root(deal_roots, before=diagnostic.deal)
            if before is not None:
                causes[position] = before
    earliest = _earliest_deal_root(deal_roots, before=None)
    if earliest is None:  # a game cut short (no 'end': a tag inside it began another)
        earliest = next((p for p, d in enumerate(numbered) if d.code == "AFN104"), None)
    if earliest is None:
        earliest = next((p for p, d in enumerate(numbered)
                         if d.deal is not None and d.severity in _WEIGHTY and p not in causes),
                        None)
    if earliest is None:
        return
    for position, diagnostic in enumerate(numbered):
        if diagnostic.code in GAME_LEVEL_CONSEQUENCES and position not in causes \
                and position != earliest:
            causes[position] = earliest


def _root_of(position: int, causes: dict[int, int]) -> int:
    """Follow the links to the root (a chain: total → earlier total → slip)."""
    seen = {position}
    while position in causes:
        position = causes[position]
        if position in seen:
            break
        seen.add(position)
    return position


__all__ = ["Group", "explain", "follow_text", "link_causes", "roots_first", "settled_kind"]
