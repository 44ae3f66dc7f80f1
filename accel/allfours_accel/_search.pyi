"""Type information for the compiled engine (``_search.c``)."""

from collections.abc import Callable, Sequence

INTERFACE: int

class Engine:
    def __init__(self, owner: Sequence[int], pips: Sequence[int], suit_of: Sequence[int],
                 counting: int, named: int, jack: int, low: int, jack_value: Sequence[int],
                 low_value: Sequence[int], next_pos: Sequence[int], side_of: Sequence[int],
                 maximises: Sequence[bool], nsides: int, lead_key: Sequence[int],
                 cheap_key: Sequence[int], win_key: Sequence[int],
                 sure_order: Sequence[int],
                 legal: Callable[[int, int, tuple[int, ...]], int],
                 winner: Callable[[tuple[int, ...]], int],
                 game: Callable[[tuple[int, ...]], int],
                 timeout: type[BaseException], forcing: bool = True,
                 pip_search: bool = True, partition: bool = True,
                 legal_ranks: bool = True, grow_after: int = ...) -> None: ...
    def solve(self, hands: Sequence[int], trick: Sequence[tuple[int, int]], leader: int,
              pips: Sequence[int], clock: Callable[[], float] | None = None,
              deadline: float | None = None, best: bool = False) -> tuple[int, int]: ...
    def bounds(self, hands: Sequence[int], leader: int,
               pips: Sequence[int]) -> tuple[int, int]: ...
    def margin(self, hands: Sequence[int], trick: Sequence[tuple[int, int]], leader: int,
               pips: Sequence[int]) -> int: ...
    def stats(self) -> tuple[int, int, int]: ...
    def table_size(self) -> int: ...
