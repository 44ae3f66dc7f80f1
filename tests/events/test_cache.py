"""The cache of game facts: a folder read again referees only the files that changed, and
the facts read back are the facts computed."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.events import games as games_module
from allfours_notation.events.cache import FactsCache, game_from_json, game_to_json
from allfours_notation.events.games import file_key, read_folder
from tests.events.test_assemble import games, write

RULES: games_module.Rules = ("trinidad14", {})


def counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files read_folder referees from now on."""
    read: list[str] = []
    original = games_module.read_one

    def spy(work: tuple[str, str, games_module.Rules]) -> object:
        read.append(Path(work[0]).name)
        return original(work)

    monkeypatch.setattr(games_module, "read_one", spy)
    return read


def test_only_a_changed_file_is_read_again(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    write(folder, "t1.afn", games(1, 2, 1))
    write(folder, "t2.afn", games(2, 2, 2))
    cache = FactsCache(tmp_path / "cache.sqlite")
    read = counting(monkeypatch)
    first = read_folder(folder, RULES, cache=cache)
    assert read == ["t1.afn", "t2.afn"]
    again = read_folder(folder, RULES, cache=cache)
    assert read == ["t1.afn", "t2.afn"] and again == first
    write(folder, "t2.afn", games(3, 2, 2))
    changed = read_folder(folder, RULES, cache=cache)
    assert read == ["t1.afn", "t2.afn", "t2.afn"] and changed != first
    assert (cache.hits, cache.misses) == (3, 3)
    assert changed.games[:2] == first.games[:2]
    read_folder(folder, ("hoffmann1909", {}), cache=cache)  # other rules: read afresh
    assert read[3:] == ["t1.afn", "t2.afn"]
    cache.close()


def test_the_facts_come_back_as_computed_under_the_name_found_now(tmp_path: Path) -> None:
    def misdeal(text: str) -> str:
        return text.replace("deal 2 dealer", "deal 2 dealt", 1)

    write(tmp_path, "t1.afn", games(1, 2, 1), misdeal)
    found = read_folder(tmp_path, RULES).games
    assert found[0].errors  # a game with an error keeps it through the cache
    for game in found:
        back = game_from_json(game_to_json(game), game.file)
        assert back == game and back.errors == game.errors
        assert game_from_json(game_to_json(game), "elsewhere.afn").file == "elsewhere.afn"


def test_a_cache_that_cannot_be_opened_is_no_cache(tmp_path: Path) -> None:
    (tmp_path / "blocked").write_text("a file where the folder should be", encoding="utf-8")
    cache = FactsCache(tmp_path / "blocked" / "cache.sqlite")
    write(tmp_path / "games", "t1.afn", games(1, 1, 1))
    assert len(read_folder(tmp_path / "games", RULES, cache=cache).games) == 1
    assert cache.get(file_key(b"", RULES), "x") is None


def test_the_facts_put_are_written_in_batches_and_when_the_folder_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "games"
    for seed in range(1, 4):
        write(folder, f"t{seed}.afn", games(seed, 1, 1 + seed % 2))
    monkeypatch.setattr("allfours_notation.events.cache.PENDING", 2)
    cache = FactsCache(tmp_path / "cache.sqlite")
    first = read_folder(folder, RULES, cache=cache)
    # another process's cache, on the same file: every file's facts were written,
    # the third (after the batch of two) when the folder had been read
    other = FactsCache(tmp_path / "cache.sqlite")
    read = counting(monkeypatch)
    assert read_folder(folder, RULES, cache=other) == first and read == []
    assert (other.hits, other.misses) == (3, 0)
    other.close()
    # facts put and not yet written are found all the same, then written at close
    key = file_key(b"a file of its own", RULES)
    cache.put(key, list(first.games[:1]))
    assert cache.get(key, "own.afn") is not None
    cache.close()
    again = FactsCache(tmp_path / "cache.sqlite")
    found = again.get(key, "own.afn")
    assert found is not None and found[0].digest == first.games[0].digest
    again.close()
