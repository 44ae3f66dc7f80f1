"""``--dist loadgroup`` that works: tests marked ``xdist_group(NAME)`` run on one worker.

pytest-xdist 3.8 groups tests by renaming them ``nodeid@NAME`` in each worker, through
an attribute pytest 9.2 no longer reads: the renaming silently does nothing, every test
becomes its own work unit, and an expensive module fixture meant to be built once (the
wheel, the benchmark run, the browser, the language server) is built on every worker
that happens to get one of its tests.  Upstream: pytest-dev/pytest-xdist issue #1386,
"`--dist=loadgroup` silently stops grouping on pytest main: the nodeid mutation no
longer takes effect" (https://github.com/pytest-dev/pytest-xdist/issues/1386), open; its
fix, pull request #1388, is not merged, and no release after 3.8.0 has it.  This module
can go with the first pytest-xdist release that has the fix (3.9, presumably): raise
the pin in constraints/ci.txt and the floor in pyproject.toml to it, delete this module,
its registration in tests/conftest.py and tests/test_xdist_groups.py.

This module does the grouping with xdist's public hooks instead, without renaming
anything: each worker writes the groups of the tests it collected to a file the
controller named (``pytest_configure_node``); the controller's scheduler
(``pytest_xdist_make_scheduler``) reads them once every worker has collected, and
hands each group to one worker as a single unit, before the ungrouped tests, which go
out one by one to whichever worker is free.  Groups go first because they are the long
units: started last, one of them would keep a worker busy while the other waits.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadScopeScheduling
from xdist.workermanage import WorkerController

GROUP_DIRECTORY = "afn_xdist_groups"
MARK = "xdist_group"


def group_of(item: pytest.Item) -> str | None:
    """The group ``item`` is marked with (the names joined, as xdist does), if any."""
    names = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                    for mark in item.iter_markers(MARK)})
    return "_".join(names) or None


class GroupScheduling(LoadScopeScheduling):
    """Each group is one unit of work, every other test a unit of its own; groups first."""

    def __init__(self, config: pytest.Config, directory: Path,
                 log: Producer | None = None) -> None:
        super().__init__(config, log)
        self.directory = directory
        self.groups: dict[str, str] = {}
        self._ordered = False

    def _split_scope(self, nodeid: str) -> str:
        group = self.groups.get(nodeid)
        return nodeid if group is None else f"group:{group}"

    def schedule(self) -> None:
        if self.collection is None:  # the first call: every worker has collected
            self.groups = read_groups(self.directory)
            self.config.option.loadscopereorder = False
        super().schedule()

    def mark_test_complete(self, node: WorkerController, item_index: int,
                           duration: float = 0) -> None:
        """As xdist does, then a unit whose tests are all done is let go of: xdist
        counts what a worker still has to run after every test, and on every event,
        by walking every unit the worker was ever given (quadratic in the number of
        tests: ~1.5 million steps, a second or two of the controller's CPU, for the
        whole suite, where nearly every test is a unit of its own).  The counts are
        the same: a finished unit has nothing pending."""
        super().mark_test_complete(node, item_index, duration)
        workload = self.assigned_work[node]
        scope = self._split_scope(self.registered_collections[node][item_index])
        if all(workload[scope].values()):
            del workload[scope]

    def _assign_work_unit(self, node: WorkerController) -> None:
        """Hand out the groups before anything else, the largest group first."""
        if self.collection is not None and not self._ordered:
            self._ordered = True
            queue = self.workqueue
            grouped = sorted((scope for scope in queue if scope.startswith("group:")),
                             key=lambda scope: -len(queue[scope]))
            for scope in reversed(grouped):
                queue.move_to_end(scope, last=False)
        super()._assign_work_unit(node)


def read_groups(directory: Path) -> dict[str, str]:
    groups: dict[str, str] = {}
    for path in sorted(directory.glob("*.json")):
        groups.update(json.loads(path.read_text(encoding="utf-8")))
    return groups


class GroupPlugin:
    """The controller's half (scheduler, directory) and the worker's half (the file)."""

    def __init__(self) -> None:
        self.directory: Path | None = None

    @pytest.hookimpl
    def pytest_configure_node(self, node: WorkerController) -> None:
        if self.directory is None:
            self.directory = Path(tempfile.mkdtemp(prefix="afn-xdist-groups-"))
        node.workerinput[GROUP_DIRECTORY] = str(self.directory)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config,
                                    log: Producer) -> GroupScheduling | None:
        if config.getvalue("dist") != "loadgroup" or self.directory is None:
            return None
        return GroupScheduling(config, self.directory, log)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
        if workerinput is None or GROUP_DIRECTORY not in workerinput:
            return
        groups = {item.nodeid: group for item in items
                  if (group := group_of(item)) is not None}
        name = f"{workerinput.get('workerid', os.getpid())}.json"
        target = Path(workerinput[GROUP_DIRECTORY]) / name
        partial = target.with_suffix(".part")
        partial.write_text(json.dumps(groups), encoding="utf-8")
        partial.replace(target)

    @pytest.hookimpl
    def pytest_unconfigure(self) -> None:
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
