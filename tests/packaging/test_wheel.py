"""The wheel carries everything, installs nothing generic, and its commands run.

One wheel is built per test session (``python -m build --no-isolation``, about two
seconds) and installed, without pip inside the new environment and without the
network, into a virtual environment outside the checkout that borrows the
already-installed dependencies.  The tests then read its file list and metadata and run
``allfours`` from that environment, in a directory where the source tree is not
importable: ``check``, ``--version``, ``export --schema`` and ``view`` on a terminal.
"""

from __future__ import annotations

import email
import email.message
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
import venv
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import allfours_notation

# The wheel is built once, on one worker.
pytestmark = pytest.mark.xdist_group("wheel")

ROOT = Path(__file__).resolve().parents[2]
VERSION = allfours_notation.__version__
DIST_INFO = f"allfours_notation-{VERSION}.dist-info"

GAME = """% AFN 1
[Event "Wheel test"]
[Site "CI"]
[Date "2026.11.29"]
[Rules "hoffmann1909"]
[North "Ann"]
[South "Ben"]
[Result "*"]
deal 1 dealer N
  turn 4S
  S stands
  1. S:JS N:2D
abandoned
end
"""


@dataclass(frozen=True, slots=True)
class Installed:
    """The built wheel and the environment it was installed into."""

    wheel: Path
    env: Path
    game: Path
    elsewhere: Path

    @property
    def python(self) -> Path:
        return self.env / "bin" / "python"

    @property
    def allfours(self) -> Path:
        return self.env / "bin" / "allfours"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.allfours), *args], cwd=self.elsewhere,
                              capture_output=True, text=True, timeout=60)


def share_dependencies(python: Path) -> None:
    """Let the new environment import lark, textual and rich from the one running the
    tests (a ``.pth`` file listing its site-packages), so the test needs no network.

    Not ``system_site_packages``: when the tests themselves run in a virtual
    environment, that would reach the base interpreter, not this one.  Paths in a
    ``.pth`` file come after the environment's own site-packages, so the wheel's
    copy of the package is the one imported.
    """
    inner = subprocess.run(
        [str(python), "-c", "import site; print(site.getsitepackages()[0])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    outer = [path for path in sys.path if path.endswith("site-packages")]
    (Path(inner) / "outer-environment.pth").write_text("\n".join(outer) + "\n")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("*.whl")
    env = base / "venv"
    venv.create(env, with_pip=False)  # this environment's pip installs into it (--python)
    python = env / "bin" / "python"
    share_dependencies(python)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    game = base / "game.afn"
    game.write_text(GAME, encoding="utf-8")
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    return Installed(wheel, env, game, elsewhere)


def wheel_names(installed: Installed) -> list[str]:
    return zipfile.ZipFile(installed.wheel).namelist()


def metadata(installed: Installed) -> email.message.Message:
    text = zipfile.ZipFile(installed.wheel).read(f"{DIST_INFO}/METADATA").decode("utf-8")
    return email.message_from_string(text)


def test_only_the_package_is_installed_at_the_top(installed: Installed) -> None:
    tops = {name.split("/")[0] for name in wheel_names(installed)}
    assert tops == {"allfours_notation", DIST_INFO}


def test_the_wheel_carries_viewer_grammar_schema_types_and_licence(installed: Installed) -> None:
    names = set(wheel_names(installed))
    viewer_sources = {
        f"allfours_notation/viewer/{path.relative_to(ROOT / 'viewer')}"
        for path in (ROOT / "viewer").rglob("*")
        if path.is_file() and path.suffix in {".py", ".tcss"}
    }
    assert "allfours_notation/viewer/app.py" in viewer_sources
    assert viewer_sources <= names
    assert {
        "allfours_notation/py.typed",
        "allfours_notation/_grammar/allfours.lark",
        "allfours_notation/_grammar/allfours.table.json",
        "allfours_notation/_grammar/afn-records.schema.json",
        "allfours_notation/events/results.schema.json",
        f"{DIST_INFO}/licenses/LICENSE",
        f"{DIST_INFO}/entry_points.txt",
    } <= names


def test_metadata_has_floors_licence_classifiers_and_keywords(installed: Installed) -> None:
    meta = metadata(installed)
    assert meta["Version"] == VERSION
    assert meta["License-Expression"] == "MIT"
    requires = [r for r in meta.get_all("Requires-Dist", []) if "extra ==" not in r]
    assert requires, "no runtime dependency declared"
    for requirement in requires:
        assert ">=" in requirement and "<" not in requirement, requirement  # a floor, no cap
    assert any(r.startswith("rich") for r in requires)
    assert "Typing :: Typed" in meta.get_all("Classifier", [])
    assert "All Fours" in str(meta.get_payload())  # the README as long description
    assert "all fours" in meta["Keywords"]
    # no public home yet, so no address (see test_project.py and the README)
    assert meta.get_all("Project-URL") is None and meta["Home-page"] is None


def test_check_runs_from_the_installed_copy(installed: Installed) -> None:
    result = installed.run("check", str(installed.game))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 game, 0 with errors" in result.stdout
    located = subprocess.run(
        [str(installed.python), "-c",
         "import allfours_notation.viewer as v; print(v.__file__)"],
        cwd=installed.elsewhere, capture_output=True, text=True, check=True,
    )
    assert located.stdout.startswith(str(installed.env))  # the installed copy, not the checkout


def test_version_and_schema_come_from_the_installed_copy(installed: Installed) -> None:
    assert installed.run("--version").stdout == f"allfours {VERSION}\n"
    schema = installed.run("export", "--schema")
    assert schema.returncode == 0
    assert schema.stdout == (ROOT / "grammar" / "afn-records.schema.json").read_text("utf-8")


ALTERNATE_SCREEN = b"\x1b[?1049h"


def read_until(fd: int, wanted: bytes, seconds: float, quiet: float | None = None) -> bytes:
    """What the terminal received until ``wanted`` appeared, or (with ``quiet``) until
    nothing came for that many seconds, or the time ran out."""
    seen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (quiet is not None or wanted not in seen):
        ready, _, _ = select.select([fd], [], [], quiet or 0.2)
        if not ready:
            if quiet is not None:
                break
            continue
        try:
            seen += os.read(fd, 65536)
        except OSError:  # the program closed the terminal
            break
    return seen


def quit_with_q(fd: int, process: subprocess.Popen[bytes], seconds: float) -> int | None:
    """Press q until the program exits, reading the terminal all the while (a program
    whose terminal is not read blocks on its next write)."""
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        os.write(fd, b"q")
        read_until(fd, b"", seconds=1.0, quiet=0.3)
    return process.poll()


def test_view_runs_from_the_installed_copy_on_a_terminal(installed: Installed) -> None:
    """``allfours view`` opens on an 80×24 pseudo-terminal (the app, its stylesheet and
    widgets all import from the wheel), draws, and quits on q with exit status 0."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    process = subprocess.Popen(
        [str(installed.allfours), "view", str(installed.game)],
        cwd=installed.elsewhere, stdin=follower, stdout=follower, stderr=follower, env=env,
    )
    os.close(follower)
    try:
        screen = read_until(leader, ALTERNATE_SCREEN, seconds=45)
        assert ALTERNATE_SCREEN in screen, screen[-2000:]  # Textual took the terminal
        screen += read_until(leader, b"", seconds=10, quiet=0.5)  # drawn: no more output
        assert quit_with_q(leader, process, seconds=30) == 0, screen[-2000:]
        assert b"Traceback" not in screen
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(leader)
