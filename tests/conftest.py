"""Run the suite in two lanes (`pytest -n 2`, pytest-xdist) without tests meeting each other.

About half of the suite's time is spent waiting on Docker (a job's container, a compile, a
time limit), so a second lane fills the idle core. Each test file stays in one lane, in order,
so its module fixtures (images, pools, clusters, trained tiny models) are built once; files
that cannot run beside each other share a lane; the slowest files start first. The lanes come
from a scheduler of our own (xdist's `loadgroup` reads `xdist_group` marks through
`item._nodeid`, which pytest 9 no longer reads). Without `-n` the order is all that changes.
"""

from __future__ import annotations

from typing import Any

# the slowest files (seconds in a two-lane run), started first so that no long file is left
# running alone at the end while the other lane idles
SLOWEST_FIRST = (
    "test_demo.py",  # builds tiny-sft from an empty cache (about 230 s of one core)
    "test_synth.py",
    "test_episodes_repair.py",
    "test_abuse.py",
    "test_gpu_code_curves.py",
    "test_terminal.py",
    "test_tiny_code.py",
    "test_terminal_harbor.py",
    "test_decode_loop.py",
    "test_synth_sandbox.py",
    "test_stack_curves.py",
    "test_smol_curve.py",
)

# test files that must not run at the same time as each other: one lane each group
SHARED_LANES = {
    # each starts a local Ray cluster of its own (two raylets on loopback)
    "test_distributed_episodes.py": "ray",
    "test_distributed_grading.py": "ray",
}


def lane_of(nodeid: str) -> str:
    """The scope a test is scheduled by: its file, or the shared lane its file belongs to."""
    path = nodeid.split("::", 1)[0]
    return SHARED_LANES.get(path.rsplit("/", 1)[-1], path)


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """The slowest files first (each file's tests keep their order); every lane collects the
    same order, and the scheduler hands files out in it."""
    rank = {name: k for k, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


def pytest_xdist_make_scheduler(config: Any, log: Any) -> Any:
    """xdist's scope scheduler, scoped by `lane_of`: a whole file (or lane) per worker, handed
    out in collection order (slowest first), not by the number of tests in a file."""
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False

    class FileLanes(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return lane_of(nodeid)

    return FileLanes(config, log)
