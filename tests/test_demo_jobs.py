"""The relay between the demo's stage processes and their bars (the processes themselves run in
tests/test_demo.py: a stage in its own process computes what it computes in turn)."""

import queue
from dataclasses import dataclass

from rlvr.demo_jobs import StageCallbacks, _Relay


@dataclass
class _Ended:
    exitcode: int | None


def test_events_reach_the_named_stages_callbacks_and_results_are_kept():
    events: queue.Queue = queue.Queue()
    rows: list = []
    for item in [("agent", "on_row", {"step": 1}), ("agent", "on_eval", {"step": 1}),
                 ("other", "on_row", {"step": 9}), ("agent", "result", "done")]:  # fmt: skip
        events.put(item)
    relay = _Relay(events, {"agent": _Ended(None)}, {"agent": StageCallbacks(on_row=rows.append)})
    relay.run()
    assert rows == [{"step": 1}] and relay.results == {"agent": "done"} and not relay.errors


def test_a_process_that_ended_without_a_word_is_an_error_naming_its_exit_code():
    relay = _Relay(queue.Queue(), {"agent": _Ended(-9)}, {})
    relay.run()  # a result sent as the process ended gets one more wait before this
    assert "agent" in relay.silent
    assert "exit code -9" in str(relay.errors["agent"]) and "resume" in str(relay.errors["agent"])
