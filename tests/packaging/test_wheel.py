"""The wheel carries everything: the grammar travels, the console script runs.

Builds the wheel, installs it into a fresh virtual environment outside the
checkout (reusing the already-installed dependencies), and runs
``allfours check`` on a sample from a directory where the source tree is not
importable.
"""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

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


def share_dependencies(python: Path) -> None:
    """Let the new environment import lark and textual from the one running the tests
    (a ``.pth`` file listing its site-packages), so the test needs no network.

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


def test_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "allfours_notation/_grammar/allfours.lark" in names
    assert any(name.startswith("viewer/") for name in names)

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    share_dependencies(python)
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    game = tmp_path / "game.afn"
    game.write_text(GAME, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = subprocess.run(
        [str(env_dir / "bin" / "allfours"), "check", str(game)],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "1 game, 0 with errors" in result.stdout
    located = subprocess.run(
        [str(python), "-c", "import allfours_notation; print(allfours_notation.__file__)"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        check=True,
    )
    assert str(env_dir) in located.stdout  # the installed copy, not the checkout
