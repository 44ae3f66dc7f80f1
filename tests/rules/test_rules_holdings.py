"""The holdings ledger (``referee/deal/holdings.py``), move by move and question by
question; then the table's snapshot, whose copy of the ledger must be its own."""

from __future__ import annotations

import random

from allfours_notation.cards import Seat, Suit, card, cards
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Play
from allfours_notation.referee.deal.holdings import Holdings, Origin
from allfours_notation.referee.deal.table import Table
from allfours_notation.referee.profiles import resolve_options

N, S = Seat.NORTH, Seat.SOUTH


def ledger() -> Holdings:
    return Holdings((N, S))


def test_a_hand_as_dealt_joins_the_hand_sorted_and_counts_the_unseen() -> None:
    book = ledger()
    assert book.write(S, (card("2H"), None, card("JS")), in_run=False)
    assert book.hands[S] == [card("JS"), card("2H")]
    assert book.unseen == {N: 6, S: 4}
    assert book.dealt_to == {card("2H"): S, card("JS"): S}
    assert book.origin[S] == {card("2H"): Origin.AS_DEALT, card("JS"): Origin.AS_DEALT}


def test_a_card_written_again_for_the_seat_is_not_counted_twice() -> None:
    book = ledger()
    book.write(S, cards("2H JS"), in_run=False)
    book.write(S, cards("JS 3C"), in_run=False)
    assert book.written[S] == list(cards("2H JS 3C"))
    assert book.unseen[S] == 3


def test_the_first_seat_written_with_a_card_is_its_owner() -> None:
    book = ledger()
    book.write(S, cards("2H"), in_run=False)
    book.write(N, cards("2H"), in_run=False)
    assert book.dealt_to[card("2H")] is S
    assert book.holders[card("2H")] is S


def test_a_seat_not_at_the_table_is_not_written() -> None:
    book = ledger()
    assert not book.write(Seat.EAST, cards("2H"), in_run=False)
    assert book.dealt_to == {}


def test_run_cards_wait_for_the_run_then_join_the_hand() -> None:
    book = ledger()
    book.write(S, cards("2H 3H 4H 5H 6H 7H"), in_run=False)
    book.write(S, cards("AS KS"), in_run=True)
    assert card("AS") not in book.hands[S]
    book.deal_run()  # two written, one unseen; North saw none of its three
    assert card("AS") in book.hands[S] and card("KS") in book.hands[S]
    assert book.unseen == {N: 9, S: 1}
    assert book.origin[S][card("AS")] is Origin.IN_THE_RUN


def test_run_cards_written_after_the_turn_up_take_the_place_of_unseen_ones() -> None:
    book = ledger()
    book.write(S, cards("2H 3H 4H 5H 6H 7H"), in_run=False)
    book.deal_run()
    assert book.unseen[S] == 3
    book.write(S, cards("AS KS QS JS"), in_run=True)
    book.take_written_run(S, 1)  # one run: room for three, not four
    assert book.unseen[S] == 0
    assert [c for c in book.hands[S] if c.suit is card("AS").suit] == list(cards("AS KS QS"))
    assert book.origin[S][card("JS")] is Origin.IN_A_RUN


def test_a_discard_leaves_the_hand_or_an_unseen_card() -> None:
    book = ledger()
    book.write(S, cards("2H 3H"), in_run=False)
    assert book.discard(S, card("2H"), 9) == ""
    assert book.discard(S, card("9C"), 9) == ""  # one of the four nobody saw
    assert book.hands[S] == [card("3H")]
    assert book.unseen[S] == 3
    assert book.discarded == {card("2H"): S, card("9C"): S}
    assert {card("2H"), card("9C")} <= book.out
    assert card("2H") not in book.holders
    assert book.put_out_by(S) == list(cards("2H 9C"))


def test_a_discard_that_cannot_be_made_says_why_and_changes_nothing() -> None:
    book = ledger()
    book.write(S, cards("2H 3H 4H 5H 6H 7H"), in_run=False)
    book.write(N, cards("AS"), in_run=False)
    book.turn_up(card("QD"))
    assert book.discard(S, card("QD"), 9) == "QD is the turn-up, in nobody's hand"
    assert book.discard(S, card("AS"), 9) == "AS was dealt to N"
    assert book.discard(S, card("KC"), 9) == \
        "S does not hold it: its hand of 9 is already accounted for"
    assert book.discard(N, card("AS"), 9) == ""
    assert book.discard(S, card("AS"), 9) == "AS is already discarded by N"
    assert len(book.hands[S]) == 6 and book.unseen[S] == 0


def test_discards_are_known_only_when_all_are_written() -> None:
    book = ledger()
    for c in (card("2H"), None, card("4H")):
        book.note_discard(S, c)
    book.note_discard(N, card("5H"))
    assert not book.discards_known(S, 3)  # a card nobody saw
    assert not book.discards_known(N, 3)  # too few
    assert not book.discards_known(Seat.EAST, 3)


def test_a_forgotten_hand_is_six_unseen_cards_and_its_holdings_go_in_place() -> None:
    book = ledger()
    book.write(N, cards("AS"), in_run=False)
    book.write(S, cards("2H 3H"), in_run=False)
    book.write(N, cards("KS"), in_run=False)
    holders = book.holders
    book.forget(S)
    assert book.holders is holders  # the play's loop holds this dict
    assert list(holders) == list(cards("AS KS"))
    assert book.hands[S] == [] and book.unseen[S] == 6 and S in book.forgotten


def test_a_card_shown_by_the_play_is_inferred_and_held() -> None:
    book = ledger()
    book.shown(S, card("9C"))
    assert book.inferred[S] == [card("9C")]
    assert book.origin[S][card("9C")] is Origin.PLAYED
    assert book.holders[card("9C")] is S
    assert book.revealed()


def test_who_was_dealt_a_card_for_a_message() -> None:
    book = ledger()
    book.write(N, cards("AS"), in_run=False)
    assert book.dealt_owner(card("AS"), S) is N
    book.shown(S, card("9C"))
    assert book.dealt_owner(card("9C"), N) is None  # shown by the play, dealt to nobody
    book.forget(N)  # N's written cards still say where AS was dealt
    assert book.dealt_owner(card("AS"), N) is N


def test_the_proof_of_a_revoke_says_where_it_came_from() -> None:
    book = ledger()
    book.write(S, cards("2H"), in_run=False)
    book.write(S, cards("AS"), in_run=True)
    book.deal_run()
    assert book.proof_source(S, card("2H")) == "hand as dealt"
    assert book.proof_source(S, card("AS")) == "received in the run"


def test_hands_at_the_first_lead_with_what_the_play_showed() -> None:
    book = ledger()
    book.write(S, cards("2H JS"), in_run=False)
    book.start_play()
    book.shown(S, card("AS"))
    book.hands[S].remove(card("2H"))  # played: the hands as dealt do not change
    assert book.held_at_start == ((N, ()), (S, cards("JS 2H")))
    assert book.held_with_inferred() == ((N, ()), (S, cards("AS JS 2H")))
    book.note_discard(S, card("3C"))
    book.discard(S, card("3C"), 9)
    assert book.whole_hand(S) == list(cards("AS JS 2H 3C"))


def test_the_questions_of_the_calls_and_the_scoring() -> None:
    book = ledger()
    book.write(S, cards("2H 3H 4H 5H 6H 7H"), in_run=False)
    book.turn_up(card("QD"))
    assert book.fully_known(S) and not book.fully_known(N)
    assert not book.fully_known(Seat.EAST)
    assert book.holds_suit(S, card("2H").suit) and not book.holds_suit(S, card("QD").suit)
    assert not book.holds_suit(Seat.EAST, card("2H").suit)
    assert book.unseen_total() == 6 and not book.all_known()
    assert book.accounted() == {card("QD")}
    assert book.was_seen_with(S, card("2H").suit)
    assert not book.was_seen_with(N, card("2H").suit)
    book.discard(S, card("2H"), 6)
    assert book.was_seen_with(S, card("2H").suit)  # put out, but seen


def test_a_copy_is_independent_of_its_original() -> None:
    book = ledger()
    book.write(S, cards("2H 3H"), in_run=False)
    book.note_discard(S, None)
    copy = book.copy()
    copy.write(S, cards("4H"), in_run=False)
    copy.hands[S].remove(card("2H"))
    copy.discards[S].append(card("5H"))
    copy.played[card("2H")] = True
    copy.shown(N, card("AS"))
    assert book.hands[S] == list(cards("3H 2H")) and book.unseen[S] == 4
    assert book.written[S] == list(cards("2H 3H")) and book.discards[S] == [None]
    assert not book.played and not book.inferred[N] and card("AS") not in book.holders


GAME = """[Event "t"]
[Rules "english7"]
[North "A"]
[South "B"]

deal 1 dealer N
  S 8C TS 2D 9C 8H 2H
  N 8S 3D KC 5D QH TH
  turn QS
  S stands
"""


def test_a_snapshot_plays_on_its_own_ledger() -> None:
    game = parse(GAME).games[0]
    options, _ = resolve_options(game)
    table = Table(game, options, keep_steps=False)
    for deal in game.deals:
        table.feed(deal)
        for event in deal.opening:
            table.feed(event)
    copy = table.snapshot()
    copy.apply(Play(seat=S, card=card("8C"), span=None))
    assert table.current is not None and copy.current is not None
    assert card("8C") in table.current.ledger.hands[S]
    assert card("8C") not in copy.current.ledger.hands[S]
    assert card("8C") in copy.current.ledger.played and not table.current.ledger.played


def test_the_trump_extremes_kept_are_those_of_the_holders_after_every_move() -> None:
    """The highest and lowest trump are kept as cards join the holders, worked out
    again once one leaves (a discard, a forgotten hand) or the trump is another."""
    rng = random.Random(38)
    pack = list(cards("2H 3H 5H 9H TH JH QH KH AH 4S 7S JS 3C 8C QD"))
    for _ in range(200):
        book = Holdings((N, S))
        for _ in range(12):
            trump = rng.choice((Suit.HEARTS, Suit.SPADES, None))
            seat, c = rng.choice((N, S)), rng.choice(pack)
            move = rng.randrange(4)
            if move == 0:
                book.write(seat, (c,), in_run=False)
            elif move == 1 and book.unseen[seat] > 0:
                book.unseen[seat] -= 1
                book.shown(seat, c)
            elif move == 2:
                book.discard(seat, c, 6)
            elif move == 3 and rng.random() < 0.2:
                book.forget(seat)
            in_trumps = [held for held in book.holders if held.suit is trump]
            expected = (max(in_trumps, key=lambda held: held.rank, default=None),
                        min(in_trumps, key=lambda held: held.rank, default=None))
            assert book.trump_extremes(trump) == expected
