"""The accelerator built with this machine's compiler and held to the reference (marked
``slow``: ``pytest -m slow``).

``test_accelerated.py`` is skipped where the optional accelerator is not installed, as in
the Quick start's environment; here ``accel/`` is built into a temporary folder (no
network: ``setup.py build`` with the setuptools of this environment) and that module runs
against the build in a process of its own, none of its tests skipped.  Skipped, with the
reason, where there is no C compiler or no setuptools.  Then nine-card deals of three and
four hands, where the reference takes seconds a deal, are compared here too.
"""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from allfours_notation.checking.analysis import Solver
from allfours_notation.checking.analysis.accelerated import AcceleratedSolver

from .cases import perspectives
from .test_accelerated import needs_engine, random_layouts

ROOT = Path(__file__).resolve().parents[2]


def _compiler() -> str | None:
    command = (sysconfig.get_config_var("CC") or "cc").split()
    return shutil.which(command[0]) if command else None


@pytest.mark.skipif(_compiler() is None, reason="no C compiler on this machine")
@pytest.mark.skipif(importlib.util.find_spec("setuptools") is None,
                    reason="setuptools is not installed here (the build needs it)")
def test_the_accelerator_builds_and_equals_the_reference(tmp_path: Path) -> None:
    source = tmp_path / "accel"
    shutil.copytree(ROOT / "accel", source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "*.so"))
    target = tmp_path / "site"
    build = subprocess.run(  # setuptools' own build of the extension: no wheel, no pip
        [sys.executable, "setup.py", "--quiet", "build", "--build-lib", str(target),
         "--build-temp", str(tmp_path / "build")],
        capture_output=True, text=True, cwd=source)
    assert build.returncode == 0, build.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(target), *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("AFN_NO_ACCEL", None)
    where = subprocess.run(
        [sys.executable, "-c", "import allfours_accel._search as s; print(s.__file__)"],
        capture_output=True, text=True, env=env, check=True, cwd=ROOT).stdout
    assert Path(where.strip()).is_relative_to(target)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider",
         "-rs", "--slow", "tests/analysis/test_accelerated.py", __file__,
         "-k", "not builds_and_equals"],  # this module's nine-card comparisons too
        capture_output=True, text=True, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stdout[-4000:]
    assert " passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-4000:]


@needs_engine
@pytest.mark.parametrize(("players", "tricks"), [(3, 2), (4, 2)])
def test_nine_card_deals_of_three_and_four_hands_give_identical_values(
        players: int, tricks: int) -> None:
    """After ``tricks`` tricks of random legal play (the reference takes minutes on some
    four-handed deals from the first lead): the value and the best card."""
    rng = random.Random(players)
    for layout in random_layouts(players, 9, 4, seed=17):
        for perspective in perspectives(layout):
            plain = Solver(layout, perspective)
            for _ in range(tricks * players):
                seat = plain.to_move()
                assert seat is not None
                plain.play(seat, rng.choice(plain.legal_now()))
            fast = AcceleratedSolver(layout, perspective)
            fast.set_position(plain.line)
            assert fast.best() == plain.best(), (layout, perspective, plain.line)
