"""Peers on equal bytes: python-chess reading PGN, endplay reading PBN.

Both are optional (``pip install .[bench]``).  Each peer file is generated here,
seeded: a few dozen distinct records (random legal chess games; random bridge
deals with a legal random play) repeated with new header values until the file
is as large as the AFN corpus it is compared with.  Parsing cost per byte does
not depend on whether records repeat.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from typing import Any

DISTINCT_RECORDS = 40


def available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _version(module: str) -> str:
    from importlib.metadata import version

    return version(module)


def chess_version() -> str:
    return _version("chess")


def endplay_version() -> str:
    return _version("endplay")


# --- PGN -------------------------------------------------------------------------------------


def _random_chess_game(rng: random.Random, number: int) -> str:
    import chess
    import chess.pgn

    board = chess.Board()
    game = chess.pgn.Game()
    game.headers["Event"] = "Bench open"
    game.headers["Site"] = "Arima"
    game.headers["Date"] = "2026.11.20"
    game.headers["Round"] = str(number)
    game.headers["White"] = f"Player {rng.randrange(100)}"
    game.headers["Black"] = f"Player {rng.randrange(100)}"
    node: Any = game
    for ply in range(rng.randrange(40, 120)):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        node = node.add_variation(move)
        if ply % 17 == 5:
            node.comment = "a plausible idea"
        board.push(move)
    outcome = board.outcome()
    game.headers["Result"] = outcome.result() if outcome else "1/2-1/2"
    return str(game)


def write_pgn(path: Path, size: int, seed: int) -> int:
    """A PGN file of at least ``size`` bytes; returns the number of games."""
    rng = random.Random(seed)
    distinct = [_random_chess_game(rng, n) for n in range(DISTINCT_RECORDS)]
    parts: list[str] = []
    written = games = 0
    while written < size:
        text = distinct[games % len(distinct)].replace(
            '[Round "', f'[Round "{games // len(distinct)}.', 1) + "\n\n"
        parts.append(text)
        written += len(text.encode("utf-8"))
        games += 1
    path.write_text("".join(parts), encoding="utf-8")
    return games


def read_pgn_games(path: Path) -> int:
    """python-chess ``read_game`` over every game of the file."""
    import chess.pgn

    games = 0
    with open(path, encoding="utf-8") as handle:
        while chess.pgn.read_game(handle) is not None:
            games += 1
    return games


def read_pgn_headers(path: Path) -> int:
    """python-chess ``read_headers``: its headers-only scan."""
    import chess.pgn

    games = 0
    with open(path, encoding="utf-8") as handle:
        while chess.pgn.read_headers(handle) is not None:
            games += 1
    return games


# --- PBN -------------------------------------------------------------------------------------


def _random_board(rng: random.Random, number: int) -> Any:
    from endplay.dealer import generate_deal
    from endplay.types import Bid, Board, Contract, Denom, Player, Vul

    deal = generate_deal(seed=rng.randrange(1 << 30))
    strain, denom = rng.choice([("S", Denom.spades), ("H", Denom.hearts), ("D", Denom.diamonds),
                                ("C", Denom.clubs), ("NT", Denom.nt)])
    level = rng.randrange(1, 5)
    declarer = rng.choice(list(Player))
    playing = deal.copy()
    playing.first = declarer.lho
    playing.trump = denom
    play = []
    for _ in range(52):
        card = rng.choice(list(playing.legal_moves()))
        play.append(card)
        playing.play(card)
    contract = Contract(f"{level}{strain}{declarer.abbr}")
    dealer = Player.north
    auction = [Bid("pass")] * ((declarer.value - dealer.value) % 4)
    auction += [Bid(f"{level}{strain}"), Bid("pass"), Bid("pass"), Bid("pass")]
    board = Board(deal, auction, play, board_num=number, vul=Vul.none, dealer=dealer,
                  contract=contract)
    board.info.event = "Bench pairs"
    board.info.site = "Arima"
    return board


def write_pbn(path: Path, size: int, seed: int) -> int:
    """A PBN file of at least ``size`` bytes; returns the number of boards."""
    from endplay.parsers import pbn

    rng = random.Random(seed)
    distinct = [pbn.dumps([_random_board(rng, n + 1)]) for n in range(DISTINCT_RECORDS)]
    header, _, _ = distinct[0].partition("[Event")
    bodies = ["[Event" + text.partition("[Event")[2].rstrip("\n") + "\n\n" for text in distinct]
    parts = [header]
    written = len(header.encode("utf-8"))
    boards = 0
    while written < size:
        body = bodies[boards % len(bodies)].replace(
            '[Board "', f'[Board "{boards // len(bodies)}', 1)
        parts.append(body)
        written += len(body.encode("utf-8"))
        boards += 1
    path.write_text("".join(parts), encoding="utf-8")
    return boards


def read_pbn_boards(path: Path) -> int:
    """endplay ``pbn.load`` over the whole file."""
    from endplay.parsers import pbn

    with open(path, encoding="utf-8") as handle:
        return len(pbn.load(handle))
