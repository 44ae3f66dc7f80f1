"""The generator drives the table (issue 22): it asks what may come next and chooses
among the answers, so it holds no rule of its own, and its games replay clean."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import allfours_notation.generate as generate_module
from allfours_notation.cards import Card, parse_card
from allfours_notation.checking import check_text
from allfours_notation.generate import Knobs, generate_corpus
from allfours_notation.reading.records import Call, CallKind, Game, Hand, TurnUp
from allfours_notation.referee.deal import DealStart, Phase, Table
from allfours_notation.referee.profiles import PROFILES, HandAfterRun, Options, YesNo

RULE_OPTIONS = tuple(field for field in Options.__dataclass_fields__
                     if field not in ("players",))


def _card(word: str) -> Card:
    card = parse_card(word)
    assert card is not None
    return card


def _cards(text: str) -> tuple[Card, ...]:
    return tuple(_card(word) for word in text.split())


def _table(options: Options, elder_cards: str, dealer_cards: str, turned: str) -> Table:
    table = Table(Game(tags=()), options, keep_steps=False)
    dealer = table.seats[0]
    elder = table.next_of[dealer]
    table.feed(DealStart(number=1, dealer=dealer))
    table.feed(Hand(seat=elder, cards=_cards(elder_cards)))
    table.feed(Hand(seat=dealer, cards=_cards(dealer_cards)))
    table.feed(TurnUp(card=_card(turned)))
    return table


NO_SPADE = "2H 3H 4H 5D 6D 7D"
SPADE = "2C 3C 4C 5C 6C 8S"


def test_the_elder_without_a_trump_must_beg_where_the_rules_say() -> None:
    strict = replace(Options(), stand_requires_trump=YesNo.YES)
    assert _table(strict, NO_SPADE, SPADE, "4S").expects().must_beg
    assert not _table(strict, SPADE, NO_SPADE, "4S").expects().must_beg
    assert not _table(Options(), NO_SPADE, SPADE, "4S").expects().must_beg


def test_the_answer_to_a_beg_says_whether_a_gift_and_a_run_are_allowed() -> None:
    strict = replace(Options(), give_requires_trump=YesNo.YES)
    for options, dealer_cards, gift, lacks in ((strict, NO_SPADE, False, True),
                                               (strict, SPADE, True, False),
                                               (Options(), NO_SPADE, True, False)):
        table = _table(options, SPADE, dealer_cards, "4S")
        table.feed(Call(seat=table.next_of[table.seats[0]], kind=CallKind.BEGS))
        answer = table.expects()
        assert answer.kind is Phase.ANSWER and answer.may_run
        assert (answer.may_give, answer.gift_lacks_trump) == (gift, lacks)


def test_discards_are_due_before_the_lead_only_where_the_rules_call_for_them() -> None:
    for rule, due in ((HandAfterRun.DISCARD_TO_SIX, True), (HandAfterRun.KEEP_ALL, False)):
        table = _table(replace(Options(), hand_after_run=rule), SPADE, NO_SPADE, "4S")
        assert table.expects().discard is due


def test_the_generator_reads_no_rule_option() -> None:
    code = Path(generate_module.__file__).read_text(encoding="utf-8")
    # an option read (``options.target``) or set (``target=``); the tags name the options
    # that differ from the profile through ``changes_from``, reading none by name
    read = sorted(name for name in RULE_OPTIONS
                  if re.search(rf"\.{name}\b|\b{name}\s*=(?!=)", code))
    assert read == [], f"the generator decides {read} itself: ask the table's Expect"
    for helper in ("legal_cards", "trick_winner", "max_runs", "gift_points", "kick_value",
                   "turnup_points"):
        assert helper not in code, f"the generator computes {helper} itself"


@pytest.mark.parametrize("profile", sorted(PROFILES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_generated_games_replay_clean_under_every_profile(profile: str, players: int) -> None:
    knobs = Knobs(beg=0.7, beg_again=0.7, turned_jack=0.3, pack=0.2)
    text = generate_corpus(11, n_games=3, profile=profile, players=players, knobs=knobs)
    checked = check_text(text)
    found = [d.code for d in checked.all_diagnostics()]
    assert found == [], f"{profile} with {players} players: {found}"
