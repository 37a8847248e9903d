"""Terminal episodes: a shell in a container of its own, judged after the agent is gone.

The session leases one fresh container per episode (rlvr.sandbox.episode), lays the task's
workspace out in /app and answers `bash`, `read_file`, `write_file` and `submit`. Each command
runs as the agent's uid under the sandbox's per-job limits (deadline, output cap, memory, pids,
no network); when it ends, every process it started is killed. After the last turn the
environment's terminal grader runs the task's tests in the same container, as a uid the agent
never had, on a snapshot of /app (rlvr/graders/terminal.py). The episode's answer, kept in the
store, is the agent's actions as one shell script, each command kept as data, so `rlvr grade`
replays exactly what ran.

A Harbor task (rlvr/tasksets/harbor.py) gets a container of its own image instead
(rlvr.sandbox.harbor_box): the same tools act as the image's USER in its WORKDIR, processes
the agent leaves keep running (as in Harbor), and Harbor's verifier judges.
"""

from __future__ import annotations

import base64
import posixpath
import shlex
import time
from typing import TYPE_CHECKING

from rlvr.graders.terminal import TerminalGrader
from rlvr.sandbox.client import wait_for_daemon
from rlvr.sandbox.docker import InfraFailure
from rlvr.sandbox.episode import AgentFault, EpisodeBox
from rlvr.sandbox.harbor_box import HarborBox
from rlvr.sandbox.task_images import TaskImageError
from rlvr.types import Observation, Task, ToolCall, Verdict

if TYPE_CHECKING:
    from rlvr.env import Environment

MAX_COMMAND_S = 120.0
MIN_COMMAND_S = 0.1  # stored as a plain decimal (`1e-05` once made a regrade run one script)
WRITE_TIMEOUT_S = 30.0
READ_LIMIT = 64 << 10


class TerminalSession:
    """One terminal episode's container and the record of what the agent did."""

    def __init__(self, env: Environment, task: Task) -> None:
        if not isinstance(env.grader, TerminalGrader):
            raise TypeError(f"environment {env.name!r}: a terminal session needs the terminal "
                            "grader ([grader] kind = \"terminal\")")  # fmt: skip
        self.grader, self.task = env.grader, task
        self.default_timeout = float(task.meta.get("agent_timeout_s", 30))
        self.actions: list[tuple[str, float]] = []
        """Each command the agent ran, with the time limit it ran under."""
        self.phase_end: float | None = None
        """Harbor tasks: `[agent].timeout_sec` bounds the whole agent phase, as in Harbor."""
        self.failure: str | None = None
        self.unrunnable: str | None = None
        self.fault: AgentFault | None = None
        self.box: EpisodeBox | HarborBox | None = None
        if task.meta.get("judge") == "harbor":
            self.phase_end = time.monotonic() + float(task.meta.get("agent_timeout_s", 600))
        try:
            self.box = self.grader.open_box(task)
        except TaskImageError as e:  # the task's image cannot be had: the task's failure
            self.unrunnable = self.failure = str(e)
        except InfraFailure as e:
            self.failure = str(e)

    def note_turn(self, text: str) -> None:
        return None

    def call(self, call: ToolCall) -> Observation:
        if self.box is None or self.failure is not None or self.fault is not None:
            return Observation(tool=call.name, content="the sandbox is unavailable", error=True)
        try:
            obs = self._call(self.box, call)
        except AgentFault as e:
            self.fault = e
            return Observation(tool=call.name, content=str(e), error=True)
        except InfraFailure as e:
            if self._back():  # the daemon was away and the episode's container still runs
                return Observation(tool=call.name, content="the sandbox did not answer for a "
                                   "while; this call's outcome is unknown (it may have run)",
                                   error=True)  # fmt: skip
            self.failure = str(e)
            return Observation(tool=call.name, content="the sandbox failed", error=True)
        return obs

    def _back(self) -> bool:
        """After an infrastructure failure: the Docker daemon answers again (waited for as the
        pool waits, bounded) and this episode's container still runs, so the episode goes on."""
        return wait_for_daemon() and self.box is not None and self.box.alive()

    def _call(self, box: EpisodeBox | HarborBox, call: ToolCall) -> Observation:
        args = call.arguments
        if call.name == "bash":
            asked = float(args.get("timeout_s", self.default_timeout))
            timeout = max(MIN_COMMAND_S, min(asked, MAX_COMMAND_S))
            if self.phase_end is not None:
                left = self.phase_end - time.monotonic()
                if left <= 0:
                    return Observation(tool="bash", content="the task's time for the agent "
                                       "([agent].timeout_sec) is used up", error=True)  # fmt: skip
                timeout = min(timeout, left)
            self.actions.append((args["command"], timeout))
            r = box.bash(args["command"], timeout, self.grader.options.output_limit_kb << 10)
            if r.get("lingering"):
                raise AgentFault("lingering_processes", "processes the command started would "
                                 "not die after it")  # fmt: skip
            return Observation(tool="bash", content=_bash_text(r, timeout),
                               error=bool(r.get("timed_out")))  # fmt: skip
        if call.name == "read_file":
            r = box.read(args["path"], READ_LIMIT)
            if not r.get("ok"):
                return Observation(tool="read_file", content=str(r.get("problem")), error=True)
            cut = f"\n[cut at {READ_LIMIT} bytes]" if r.get("cut") else ""
            return Observation(tool="read_file", content=str(r.get("content", "")) + cut)
        if call.name == "write_file":
            data = base64.b64encode(args["content"].encode()).decode()
            # the strong judge's runner writes where the path reads as text (`..` undone before
            # any link is followed): the stored action names that same place
            where = args["path"] if isinstance(box, HarborBox) else posixpath.normpath(
                posixpath.join("/app", args["path"]))  # fmt: skip
            path = shlex.quote(where)
            write = f'mkdir -p -- "$(dirname -- {path})" && printf %s {data} | base64 -d > {path}'
            self.actions.append((write, WRITE_TIMEOUT_S))
            r = box.write(args["path"], args["content"])
            if not r.get("ok"):
                return Observation(tool="write_file", content=str(r.get("problem")), error=True)
            return Observation(tool="write_file", content=f"wrote {args['path']}")
        if call.name == "submit":
            return Observation(tool="submit", content="submitted")
        return Observation(tool=call.name, content=f"{call.name} is not offered here", error=True)

    def answer(self) -> str:
        return actions_script(self.actions, self.box.workdir if isinstance(self.box, HarborBox)
                              else "/app")  # fmt: skip

    def verdict(self) -> Verdict | None:
        if self.unrunnable is not None:
            return Verdict.error("grader_error", f"the task cannot run here: {self.unrunnable}")
        if self.fault is not None:
            return Verdict.reject(
                f"the agent broke its container: {self.fault}", cause=self.fault.cause
            )  # type: ignore[arg-type]
        if self.failure is not None or self.box is None:
            return Verdict.error("infra_error", f"the episode's sandbox failed: {self.failure}")
        verdict = self.grader.judge(self.box, self.task)
        if verdict.status == "infra_error" and self._back():
            # the daemon was away while the judge ran and the container still runs: the judge
            # starts over (it kills what the first one left, and lays its files out afresh)
            verdict = self.grader.judge(self.box, self.task)
        return verdict

    def close(self) -> None:
        if self.box is not None:
            self.box.close()


def actions_script(actions: list[tuple[str, float]], workdir: str) -> str:
    """The agent's actions as one script that runs each as the episode did: every command is
    data (base64) handed to its own `bash -c` in the workdir, so no text in one command (a
    stray `)`, a heredoc) can change how the next is read, under the time limit it ran under
    and in a process group of its own (`timeout`), so a `kill 0` ends only that command."""
    lines = []
    for action, limit in actions:
        data = base64.b64encode(action.encode("utf-8", "surrogatepass")).decode()
        lines.append(f"(cd {shlex.quote(workdir)} && timeout -k 2 {limit:g} "
                     f'bash -c "$(printf %s {data} | base64 -d)")')  # fmt: skip
    return "\n".join(lines)


def _bash_text(r: dict, timeout: float) -> str:
    lines = [f"exit code {r.get('exit_code')}"]
    if r.get("timed_out"):
        lines[0] = f"stopped after {timeout:g} s (the command's time limit)"
    elif r.get("flooded"):
        lines[0] = f"stopped after {r.get('output_bytes')} bytes of output (the output limit)"
    if r.get("oom"):
        lines[0] += " (the memory limit was hit)"
    out = str(r.get("output", ""))
    lines.append(out)
    total = int(r.get("output_bytes", 0))
    if total > len(out.encode()):
        lines.append(f"[output cut: {total} bytes in all]")
    return "\n".join(lines)


def open_terminal(env: Environment, task: Task) -> TerminalSession:
    return TerminalSession(env, task)
