"""The suite's scheduler keeps each ``xdist_group`` on one worker and hands groups out first.

Driven with stand-in workers (no processes): what each one is sent to run.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest
from xdist.workermanage import WorkerController

from tests.xdist_groups import GroupScheduling, read_groups

COLLECTION = [
    "tests/a.py::test_1", "tests/a.py::test_2",
    "tests/wheel.py::test_build", "tests/wheel.py::test_files", "tests/wheel.py::test_run",
    "tests/b.py::test_1", "tests/browser.py::test_page", "tests/browser.py::test_keys",
    "tests/c.py::test_1", "tests/c.py::test_2", "tests/c.py::test_3",
]
GROUPS = {"tests/wheel.py::test_build": "wheel", "tests/wheel.py::test_files": "wheel",
          "tests/wheel.py::test_run": "wheel", "tests/browser.py::test_page": "chromium",
          "tests/browser.py::test_keys": "chromium"}


class Options:
    """What the scheduler reads of pytest's configuration."""

    def __init__(self) -> None:
        self.option = SimpleNamespace(loadscopereorder=True, tx=["popen", "popen"])

    def getvalue(self, name: str) -> object:
        return getattr(self.option, name, None)


class Worker:
    """What the scheduler uses of an xdist worker: it records the tests it is sent."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.sent: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def run_all(directory: Path) -> list[list[str]]:
    """Schedule COLLECTION on two workers, completing tests until none is left; the
    tests each worker was sent, in order."""
    (directory / "gw0.json").write_text(json.dumps(GROUPS), encoding="utf-8")
    scheduler = GroupScheduling(cast(pytest.Config, Options()), directory)
    workers = [Worker("gw0"), Worker("gw1")]
    nodes = [cast(WorkerController, worker) for worker in workers]
    for node in nodes:
        scheduler.add_node(node)
        scheduler.add_node_collection(node, COLLECTION)
    scheduler.schedule()
    done = [0, 0]
    while not scheduler.tests_finished:
        for number, worker in enumerate(workers):
            if done[number] < len(worker.sent):
                scheduler.mark_test_complete(nodes[number], worker.sent[done[number]])
                done[number] += 1
    return [[COLLECTION[index] for index in worker.sent] for worker in workers]


def test_each_group_runs_whole_on_one_worker(tmp_path: Path) -> None:
    ran = run_all(tmp_path)
    assert sorted(test for tests in ran for test in tests) == sorted(COLLECTION)
    for group in ("wheel", "chromium"):
        members = {test for test, name in GROUPS.items() if name == group}
        holders = [tests for tests in ran if members & set(tests)]
        assert len(holders) == 1, group
        assert members <= set(holders[0])


def test_the_groups_go_out_first_the_largest_first(tmp_path: Path) -> None:
    first, second = run_all(tmp_path)
    assert first[:3] == ["tests/wheel.py::test_build", "tests/wheel.py::test_files",
                         "tests/wheel.py::test_run"]
    assert second[:2] == ["tests/browser.py::test_page", "tests/browser.py::test_keys"]


def test_ungrouped_tests_are_spread_over_both_workers(tmp_path: Path) -> None:
    first, second = run_all(tmp_path)
    ungrouped = set(COLLECTION) - set(GROUPS)
    assert ungrouped & set(first) and ungrouped & set(second)


def test_the_groups_are_read_from_every_worker_s_file(tmp_path: Path) -> None:
    (tmp_path / "gw0.json").write_text(json.dumps({"x::a": "one"}), encoding="utf-8")
    (tmp_path / "gw1.json").write_text(json.dumps({"x::b": "two"}), encoding="utf-8")
    (tmp_path / "gw1.part").write_text("{not finished", encoding="utf-8")
    assert read_groups(tmp_path) == {"x::a": "one", "x::b": "two"}
