"""``allfours serve`` as a process: the links it prints and writes, a server SIGKILLed
between an entry and its answer (after a restart, the file and the table's state agree,
the entry in it once), an event's table restarted after its match ended (no next game
offered), and aiohttp and segno loaded by this command only.  The table refused when its
file cannot be served and the page of links that cannot be written are said by the
command run in this process (no server is left running either way)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from allfours_notation.cli import main
from allfours_notation.venue.event import event_tables, write_missing

from .serving import game_file, wait_until
from .test_serve_event import EVENT, event_in

ROOT = Path(__file__).resolve().parents[2]
PHONE = "phone-kill0001"


@contextmanager
def serving(path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``allfours serve path --port 0``, and the (first) table's link it printed (an
    event's game files it made are printed before)."""
    process = subprocess.Popen([sys.executable, "-m", "allfours_notation", "serve",
                                str(path), "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        while line.startswith("new game file: "):
            line = process.stdout.readline()
        assert line.startswith("table "), line + (process.stderr.read() if process.stderr
                                                   else "")
        yield process, line.split(": ", 1)[1].strip()
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=20)


def post(link: str, number: int, line: str) -> dict[str, Any]:
    data = json.dumps({"phone": PHONE, "number": number, "line": line}).encode()
    request = urllib.request.Request(link + "entry", data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def get(link: str) -> dict[str, Any]:
    with urllib.request.urlopen(link + "state", timeout=30) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def test_the_links_are_printed_and_written(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    with serving(path) as (process, link):
        assert link.startswith("http://127.0.0.1:") and "/t/" in link
        assert get(link)["table"] == "table-1"
        page = (tmp_path / "serve-links.html").read_text()
        assert link in page and page.count("<svg") == 1
        assert "viewBox" in page  # the QR code scales to the size the page gives it
        assert (tmp_path / "serve-links.html").stat().st_mode & 0o077 == 0
    assert process.returncode == 0


def test_a_file_that_cannot_be_served_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In this process: the refusal is the command's (``python -m allfours_notation``
    exits with what ``main`` returns; the servers above and below run as processes)."""
    path = tmp_path / "broken.afn"
    path.write_text("[Event \"x\"\ndeal 1 dealer Q\n")
    before = path.read_bytes()
    code = main(["serve", str(path), "--port", "0"])
    assert code == 2 and "not a valid AFN record" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_a_server_killed_between_an_entry_and_its_answer_resumes(tmp_path: Path) -> None:
    path = game_file(tmp_path)
    journal = tmp_path / ".table-1.afn.serve.json"
    with serving(path) as (process, link):
        for number, line in enumerate(["n", "h n", "l e"], start=1):
            assert post(link, number, line)["outcome"]["accepted"]

        def send_and_lose_the_answer() -> None:
            with contextlib.suppress(OSError):  # the server died before answering
                post(link, 4, "j n")

        sender = threading.Thread(target=send_and_lose_the_answer)
        sender.start()
        wait_until(lambda: journal.exists() and json.loads(journal.read_text())
                   .get("pending", {}).get("number") == 4, "entry 4 in the journal")
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=20)
        sender.join(timeout=30)
    with serving(path) as (_, link):
        answer = post(link, 4, "j n")  # the phone sends it again: applied once in all
        again = post(link, 4, "j n")
        assert again["replayed"]
        state = get(link)
        assert state["sent"] == {PHONE: 4}
        assert state["scores"] == [["NS", 2], ["EW", 1]]
        assert answer["state"]["scores"] == state["scores"]
    text = path.read_text()
    assert text.count("jack") == 1 and "scored N high jack E low" in text


def test_a_server_restarted_after_the_match_ended_offers_no_next_game(
        tmp_path: Path) -> None:
    """An event's table: its one game won, the server killed and started again; the
    game is shown as it ended, no next game (the match rule asked as the table is
    opened), the phone's 'next game' refused, the file as the first server left it."""
    event = event_in(tmp_path, EVENT.replace("games = 2", "games = 1"))
    tables = event_tables(event, tmp_path / "games", "1")
    write_missing(tables)
    path = tables[0].path
    path.write_text(path.read_text().replace('[Result "*"]',
                                             '[Result "*"]\n[Score "NS 13 EW 0"]'))
    why = "table 1 has played its 1 games"
    with serving(tmp_path / "EVENT.toml") as (process, link):
        for number, line in enumerate(["n", "h n", "", "y"], start=1):
            assert post(link, number, line)["outcome"]["accepted"]
        assert get(link)["next_game"]["why_not"] == why
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=20)
    finished = path.read_bytes()
    with serving(tmp_path / "EVENT.toml") as (_, link):
        state = get(link)
        assert (state["game"], state["phase"], state["scores"]) == \
            (1, "over", [["NS", 14], ["EW", 0]])
        assert state["next_game"] == {"offered": False, "why_not": why, "game": 2}
        refused = post(link, 5, "next game")["outcome"]
        assert not refused["accepted"] and why in refused["message"]
    assert path.read_bytes() == finished


def test_only_serve_imports_aiohttp_and_segno() -> None:
    code = ("import sys; from allfours_notation.cli import main\n"
            "try:\n main(['--help'])\nexcept SystemExit:\n pass\n"
            "main(['check', 'samples/annotated.afn'])\n"
            "print('aiohttp' in sys.modules, 'segno' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT).stdout
    assert out.strip().splitlines()[-1] == "False False"


def test_a_page_of_links_that_cannot_be_written_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In this process, as the refusal above: the server listens, cannot write its page,
    says so and stops with status 2 (an exception would fail the test here)."""
    path = game_file(tmp_path)
    code = main(["serve", str(path), "--port", "0",
                 "--links", str(tmp_path / "nowhere" / "l.html")])
    err = capsys.readouterr().err
    assert code == 2 and "cannot write the page of links" in err
    assert "Traceback" not in err
