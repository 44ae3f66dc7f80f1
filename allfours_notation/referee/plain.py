"""The replay without the dispute report: a game's records fed to the one table.

:func:`replay_plain` is what :func:`.replay.replay` adds the dispute report to, and
what the dispute report itself replays a game with under other rules (a claim that
is right under another profile); it lives apart so that the two depend one way.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..cards import Card, Seat
from ..diagnostics import Diagnostic
from ..reading.records import Game
from .changes import StepChange
from .deal.table import Table
from .play import hand_order, legal_cards
from .profiles import Options
from .state import GameReplay, Step, StepKind, TableState, build_game_replay, copied_by_slots

__all__ = ["replay_changes_plain", "replay_plain", "with_hindsight"]

# ``dataclasses.replace`` for the two records :func:`with_hindsight` completes, made once.
if TYPE_CHECKING:
    def _step_with(old: Step, *, state: TableState) -> Step:
        return replace(old, state=state)

    def _state_with(old: TableState, *, hands: tuple[tuple[Seat, tuple[Card, ...]], ...],
                    unknown: tuple[tuple[Seat, int], ...],
                    legal: frozenset[Card]) -> TableState:
        return replace(old, hands=hands, unknown=unknown, legal=legal)
else:
    _step_with = copied_by_slots(Step, ("state",))
    _state_with = copied_by_slots(TableState, ("hands", "unknown", "legal"))


def replay_plain(
    game: Game,
    options: Options,
    option_diags: tuple[Diagnostic, ...] = (),
    *,
    record_states: bool = True,
) -> GameReplay:
    """The replay without the dispute report (used to try other rules on a claim).

    ``record_states=False`` computes scores and diagnostics only, with no steps.
    """
    table = Table(game, options, keep_steps=record_states)
    for deal in game.deals:
        table.feed_deal(deal)
    table.end_game()
    steps: tuple[Step, ...] = ()
    if record_states:
        kept = with_hindsight(table.steps, table.hindsight, options)
        steps = tuple(_offences_at_their_cards(kept, table.proved_later))
    return _game_replay(table, option_diags, steps)


def replay_changes_plain(game: Game, options: Options,
                         option_diags: tuple[Diagnostic, ...] = ()
                         ) -> tuple[GameReplay, tuple[StepChange, ...]]:
    """:func:`replay_plain` with each step as what it changed (a replay page's, see
    :mod:`.changes`): the replay, without steps, and the steps."""
    table = Table(game, options, changes=True)
    for deal in game.deals:
        table.feed_deal(deal)
    table.end_game()
    assert table.changes is not None
    changes = table.changes.finish(table.hindsight, table.proved_later)
    return _game_replay(table, option_diags, ()), changes


def _game_replay(table: Table, option_diags: tuple[Diagnostic, ...],
                 steps: tuple[Step, ...]) -> GameReplay:
    """The replay's result from ``table``, which took every deal of its game."""
    game, options = table.game, table.options
    result = build_game_replay(
        game=game,
        options=options,
        steps=steps,
        deals=tuple(table.deals),
        diagnostics=(*option_diags, *_in_play_order(table.found, table.proved_later)),
        scores=table.scores_now(),
        winner=table.winner,
        decided=table.decided,
        option_diagnostics=option_diags,
        unfinished=tuple(table.unfinished),
        hand_proofs=tuple(table.hand_proofs),
    )
    table.release()
    return result


def with_hindsight(steps: list[Step], deals: list[tuple[int, int, dict[Seat, list[Card]]]],
                   options: Options) -> list[Step]:
    """The steps as a reader of the whole record sees them.

    The table knows a card of a hand that was never written only when it is
    played; a viewer of a finished record can show it in the hand from the deal
    (or, after a run, the play) on.  Each deal's ``(first step, last step,
    cards seen only in play)`` says which states to complete.
    """
    if not deals:
        return steps
    out = list(steps)
    for first, last, inferred in deals:
        waiting = {seat: list(cards) for seat, cards in inferred.items() if cards}
        for index in range(first, last + 1):
            step = out[index]
            state = step.state
            if step.kind is StepKind.PLAY and state.trick:
                seat, played = state.trick[-1]
                if played in waiting.get(seat, ()):
                    waiting[seat].remove(played)
            if any(waiting.values()):  # else the table showed every card already
                out[index] = _step_with(step, state=_completed(state, waiting, options))
    return out


def _in_play_order(found: list[Diagnostic],
                   proved_later: list[tuple[Diagnostic, int, int]]) -> list[Diagnostic]:
    """The diagnostics in the order of the cards they are about: an offence proved by a
    later card goes back to where the offending card was played."""
    if not proved_later:
        return found
    later = {id(d): (at, n) for n, (d, at, _) in enumerate(proved_later)}
    keyed = [((later[id(d)][0], 0, later[id(d)][1]) if id(d) in later else (i, 1, 0), d)
             for i, d in enumerate(found)]
    keyed.sort(key=lambda pair: pair[0])
    return [d for _, d in keyed]


def _offences_at_their_cards(steps: list[Step],
                             proved_later: list[tuple[Diagnostic, int, int]]) -> list[Step]:
    """Each offence proved by a later card shown at the step of the offending card."""
    if not proved_later:
        return steps
    out = list(steps)
    moved = {id(d) for d, _, _ in proved_later}
    for index, step in enumerate(out):
        if any(id(d) in moved for d in step.diagnostics):
            out[index] = replace(step, diagnostics=tuple(d for d in step.diagnostics
                                                         if id(d) not in moved))
    for diagnostic, _, index in proved_later:
        if index < len(out):
            step = out[index]
            out[index] = replace(step, diagnostics=(*step.diagnostics, diagnostic))
    return out


def _completed(state: TableState, waiting: dict[Seat, list[Card]],
               options: Options) -> TableState:
    hands = tuple((seat, tuple(sorted([*held, *waiting.get(seat, ())], key=hand_order))
                   if waiting.get(seat) else held) for seat, held in state.hands)
    unknown = tuple((seat, count - len(waiting.get(seat, ()))) for seat, count in state.unknown)
    legal = state.legal
    mover = state.to_move
    if mover is not None and waiting.get(mover) and dict(unknown).get(mover) == 0:
        on_table = state.trick if len(state.trick) < len(state.seats) else ()
        legal = legal_cards(dict(hands)[mover], on_table, state.trump, options)
    return _state_with(state, hands=hands, unknown=unknown, legal=legal)
