"""The killable worker pool: results, failures as data, deadlines enforced from outside."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from rlvr.graders.bounded import PoolError, WorkerPool


@pytest.fixture(scope="module")
def pool() -> Iterator[WorkerPool]:
    with WorkerPool(size=2, memory_mb=512) as p:
        yield p


def _pid(pool: WorkerPool) -> int:
    result = pool.run(os.getpid, timeout_s=30.0)
    assert result.ok, result.error
    return result.value


def test_run_returns_the_value_computed_in_another_process(pool: WorkerPool) -> None:
    assert pool.run(divmod, 17, 5, timeout_s=30.0).value == (3, 2)
    assert _pid(pool) != os.getpid()


def test_batch_keeps_order_and_reports_each_item(pool: WorkerPool) -> None:
    results = pool.run_batch(divmod, 100, [7, 0, 9], timeout_s=30.0)
    assert [r.status for r in results] == ["ok", "error", "ok"]
    assert results[0].value == (14, 2)
    assert results[2].value == (11, 1)
    assert results[1].error.startswith("ZeroDivisionError")


def test_a_job_that_hangs_is_killed_and_the_pool_keeps_working() -> None:
    with WorkerPool(size=1) as single:
        before = _pid(single)
        hung = single.run(time.sleep, 60, timeout_s=0.5)
        assert hung.status == "timeout"
        assert "killed" in hung.error
        after = _pid(single)
        assert after != before  # the hung worker was replaced
        with pytest.raises(ProcessLookupError):
            os.kill(before, 0)


def test_a_hang_in_the_middle_of_a_batch_times_out_only_that_item() -> None:
    with WorkerPool(size=1) as single:
        results = single.run_batch(_sleep_then_square, None, [2, 60, 3], timeout_s=1.0)
    assert [r.status for r in results] == ["ok", "timeout", "ok"]
    assert results[0].value == 4
    assert results[2].value == 9


def _sleep_then_square(_: None, n: int) -> int:
    if n > 10:
        time.sleep(n)
    return n * n


def test_a_worker_that_dies_is_reported_and_replaced(pool: WorkerPool) -> None:
    crashed = pool.run(os._exit, 3, timeout_s=30.0)
    assert crashed.status == "crashed"
    assert "exit code 3" in crashed.error
    assert pool.run(divmod, 9, 4, timeout_s=30.0).value == (2, 1)


def test_memory_is_capped_per_worker(pool: WorkerPool) -> None:
    result = pool.run(bytearray, 4 * 1024**3, timeout_s=30.0)
    assert result.status == "error"
    assert result.error.startswith("MemoryError")


def test_a_job_that_cannot_be_sent_is_an_error_not_a_crash(pool: WorkerPool) -> None:
    result = pool.run(lambda: 1, timeout_s=30.0)
    assert result.status == "error"
    assert "could not be sent" in result.error


def test_usable_from_many_threads_at_once(pool: WorkerPool) -> None:
    with ThreadPoolExecutor(max_workers=6) as threads:
        values = list(
            threads.map(lambda n: pool.run(divmod, n, 3, timeout_s=30.0).value, range(24))
        )
    assert values == [divmod(n, 3) for n in range(24)]


def test_deadline_holds_outside_the_main_thread() -> None:
    out: dict[str, str] = {}

    def work() -> None:
        with WorkerPool(size=1) as single:
            out["status"] = single.run(time.sleep, 60, timeout_s=0.5).status

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(timeout=60)
    assert out == {"status": "timeout"}


def test_closed_pool_refuses_work() -> None:
    closed = WorkerPool(size=1)
    closed.close()
    with pytest.raises(PoolError, match="closed"):
        closed.run(divmod, 1, 1, timeout_s=5.0)


def test_a_worker_that_cannot_start_is_a_pool_error() -> None:
    broken = WorkerPool(size=1, preload=("no_such_module_for_rlvr",))
    with broken, pytest.raises(PoolError, match="did not start"):
        broken.run(divmod, 1, 1, timeout_s=5.0)


def test_size_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        WorkerPool(size=0)
