"""Run the suite in two lanes (`pytest -n 2`, pytest-xdist) without tests meeting each other.

About half of the suite's time is spent waiting on Docker (a job's container, a compile, a
time limit), so a second lane fills the idle core. Each test file stays in one lane, in order,
so its module fixtures (images, pools, clusters, trained tiny models) are built once; files
that cannot run beside each other share a group and so a lane. Without `-n` this file changes
nothing.
"""

from __future__ import annotations

import pytest

# test files that must not run at the same time as each other: one lane each group
SHARED_LANES = {
    # each starts a local Ray cluster of its own (two raylets on loopback)
    "test_distributed_episodes.py": "ray",
    "test_distributed_grading.py": "ray",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put every test in its file's group (`--dist loadgroup` keeps a group in one lane)."""
    for item in items:
        name = item.path.name
        item.add_marker(pytest.mark.xdist_group(SHARED_LANES.get(name, name)))
