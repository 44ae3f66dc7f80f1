"""Small builders for rules tests: a game from a few deal lines, replayed."""

from __future__ import annotations

from allfours_notation.checking.parsing import parse
from allfours_notation.diagnostics import Diagnostic
from allfours_notation.reading.records import Game
from allfours_notation.referee import GameReplay, Options, replay
from allfours_notation.referee.profiles import resolve_options

PLAYERS = {
    2: {"North": "Ann", "South": "Ben"},
    3: {"North": "Ann", "East": "Cy", "South": "Ben"},
    4: {"North": "Ann", "East": "Cy", "South": "Ben", "West": "Di"},
}


def game_text(deals: str, *, players: int = 2, rules: str = "hoffmann1909",
              tags: dict[str, str] | None = None, result: str = "*") -> str:
    lines = ["% AFN 1", '[Event "test"]', '[Site "here"]', '[Date "2026.11.29"]',
             f'[Rules "{rules}"]']
    lines += [f'[{seat} "{name}"]' for seat, name in PLAYERS[players].items()]
    lines.append(f'[Result "{result}"]')
    lines += [f'[{name} "{value}"]' for name, value in (tags or {}).items()]
    return "\n".join(lines) + "\n\n" + deals.strip("\n") + "\nend\n"


def game_of(deals: str, **kwargs: object) -> Game:
    result = parse(game_text(deals, **kwargs))  # type: ignore[arg-type]
    parser_errors = [d for d in result.diagnostics if d.is_error]
    assert not parser_errors, [d.headline() for d in parser_errors]
    return result.games[0]


def run(deals: str, *, options: Options | None = None, **kwargs: object) -> GameReplay:
    return replay(game_of(deals, **kwargs), options)


def codes(replayed: GameReplay) -> list[str]:
    return [d.code for d in replayed.diagnostics]


def rules_codes(replayed: GameReplay) -> list[str]:
    """Codes of the rules diagnostics only (not disputes about claims/totals)."""
    return [d.code for d in replayed.diagnostics if not d.code.startswith("AFN4")]


def find(replayed: GameReplay, code: str) -> list[Diagnostic]:
    return [d for d in replayed.diagnostics if d.code == code]


def items(replayed: GameReplay, deal: int = 0) -> list[tuple[str, str, int]]:
    """(item, side, points) of one deal, in counting order."""
    return [(p.item.value, p.side, p.points) for p in replayed.deals[deal].points]


def options_of(text: str) -> Options:
    options, _ = resolve_options(parse(text).games[0])
    return options


# Example A of docs/rules.md section 10: S (elder) holds the lone trump JS.
EXAMPLE_A = """
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2H 2D
  turn 4S
  S stands
  1. S:JS N:2D
  2. S:9H N:3H
  3. S:8H N:2H
  4. S:7C N:8C
  5. N:9C S:5D
  6. N:7D S:6D
"""

# Example C: turn-up AS; the only spade dealt is 7S, held by the dealer N.
EXAMPLE_C = """
deal 1 dealer N
  S KH QH 9D 8C 4C 3D
  N 7S TH 5D 6C JD 2C
  turn AS
  S stands
  1. S:KH N:TH
  2. S:QH N:7S
  3. N:JD S:9D
  4. N:5D S:3D
  5. N:6C S:8C
  6. S:4C N:2C
"""


# S (elder) revokes in trick 3 of example C: N leads JD, S plays 8C holding 9D 3D.
REVOKE_BY_S = """
deal 1 dealer N
  S KH QH 9D 8C 4C 3D
  N 7S TH 5D 6C JD 2C
  turn AS
  S stands
  1. S:KH N:TH
  2. S:QH N:7S
  3. N:JD S:8C
  4. N:5D S:3D
  5. N:6C S:4C
  6. N:2C S:9D
"""

# Equal pips (10 each), no trump in play; S is the elder hand.
TIE = """
deal 1 dealer N
  S TH 2S 3D 4D 5D 6D
  N TS 3S 7H 8D 9D 2H
  turn 4C
  S stands
  1. S:TH N:2H
  2. S:3D N:8D
  3. N:TS S:2S
  4. N:3S S:4D
  5. N:7H S:5D
  6. N:9D S:6D
"""

# Example D's first deals: N (elder in deal 2) reaches 6; S has 1.
N_AT_SIX = """
deal 1 dealer N
  S 9C 8C 7D 3H 2H 2D
  N JS 9H 8H 7C 6D 5D
  turn 4S
  S stands
  1. S:2D N:5D
  2. N:JS S:2H
  3. N:9H S:3H
  4. N:8H S:7D
  5. N:7C S:9C
  6. S:8C N:6D

deal 2 dealer S
  N 7S TH 5D 6C JD 2C
  S KH QH 9D 8C 4C 3D
  turn AS
  N stands
  1. N:TH S:KH
  2. S:QH N:7S
  3. N:JD S:9D
  4. N:5D S:3D
  5. N:6C S:8C
  6. S:4C N:2C
"""

# S (dealer in deal 2) takes High, Low, Jack and Game again: 4 + 4 = 8.
S_TO_EIGHT = EXAMPLE_A + """
deal 2 dealer S
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2H 2D
  turn 4S
  N stands
  1. N:2D S:5D
  2. S:JS N:2H
  3. S:9H N:3H
  4. S:8H N:7D
  5. S:7C N:9C
  6. N:8C S:6D
"""
