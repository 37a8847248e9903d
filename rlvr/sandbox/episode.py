"""One container for one episode: the host side of `sandbox/runner/episode.py`.

An `EpisodeBox` starts a fresh locked-down container (the pool's limits, no network, read-only
root) with one more tmpfs, the agent's workspace `/app`, owned by a random uid the host picks
for the agent. Each tool call is one `docker exec` of the in-container episode runner; `judge`
runs once after the last turn. The box is removed when the episode ends, so nothing an agent
leaves reaches another episode (a fresh container costs about a quarter of a second here).
"""

from __future__ import annotations

import base64
import secrets
from pathlib import Path
from typing import Any

from rlvr.sandbox import leases
from rlvr.sandbox.docker import Container, InfraFailure
from rlvr.sandbox.results import RawResult
from rlvr.sandbox.spec import SandboxSpec

WORKSPACE = "/app"
AGENT_UID_BASE = 100_000
AGENT_UID_SPAN = 1 << 30
OP_MARGIN_S = 20.0
RUNNER = ["python3", "-I", "/opt/rlvr/episode.py"]


def workspace_files(folder: Path) -> tuple[dict[str, Any], list[str]]:
    """Files under `folder` as the runner's payload (text, or base64 for binary files) and the
    relative paths of the executable ones."""
    files: dict[str, Any] = {}
    executable = []
    if not folder.is_dir():
        return files, executable
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder).as_posix()
        data = path.read_bytes()
        try:
            files[rel] = data.decode("utf-8")
        except UnicodeDecodeError:
            files[rel] = {"b64": base64.b64encode(data).decode()}
        if path.stat().st_mode & 0o111:
            executable.append(rel)
    return files, executable


class AgentFault(Exception):
    """The episode's container failed because of what the agent did (filled its memory, left
    processes that would not die): scored 0 with `cause`, never masked."""

    def __init__(self, cause: str, message: str) -> None:
        self.cause = cause
        super().__init__(message)


class EpisodeBox:
    """A container leased for one episode; every method is one exec (raises InfraFailure when
    the daemon or the container fails, never for anything the agent did)."""

    def __init__(self, spec: SandboxSpec) -> None:
        """Mounts /app (the agent's uid) and /judge (a judge uid the agent never has)."""
        self.spec = spec
        self.agent_uid = AGENT_UID_BASE + secrets.randbelow(AGENT_UID_SPAN)
        self.judge_uid = self.agent_uid + 1 + secrets.randbelow(AGENT_UID_SPAN)
        # the judge's own tmpfs: nothing the agent does to /tmp can leave the judge no room
        owned = {WORKSPACE: self.agent_uid, "/judge": self.judge_uid}
        leases.opening()
        self.container = Container(spec, owned=owned)
        self.closed = False
        leases.hold(self)

    def op(self, name: str, payload: dict[str, Any], timeout: float) -> dict[str, Any]:
        out = self.container.exec([*RUNNER, name], "0:0", payload, timeout + OP_MARGIN_S,
                                  RawResult)  # fmt: skip
        if out.result is None and self.container.oom_killed():
            raise AgentFault("memory_limit", f"the container's memory limit was hit during "
                             f"{name!r} (only the agent's work fills it)")  # fmt: skip
        if out.watchdog:
            raise InfraFailure(f"the episode runner passed its deadline during {name!r}")
        if out.result is None:
            raise InfraFailure(f"no result from the episode runner ({name}): {out.stderr[:300]}")
        result = dict(out.result)
        if "error" in result and name != "judge":
            raise InfraFailure(f"episode runner ({name}): {str(result['error'])[:300]}")
        return result

    def open(self, files: dict[str, Any], executable: list[str], setup: str | None,
             timeout: float) -> dict[str, Any]:  # fmt: skip
        payload = {"agent_uid": self.agent_uid, "files": files, "executable": executable,
                   "setup": setup, "timeout_s": timeout}  # fmt: skip
        return self.op("open", payload, timeout)

    def bash(self, command: str, timeout: float, output_limit: int) -> dict[str, Any]:
        payload = {"command": command, "timeout_s": timeout, "output_limit": output_limit}
        return self.op("bash", payload, timeout)

    def read(self, path: str, limit: int) -> dict[str, Any]:
        return self.op("read", {"path": path, "limit": limit}, 30)

    def write(self, path: str, content: str) -> dict[str, Any]:
        return self.op("write", {"path": path, "content": content}, 30)

    def judge(self, tests: dict[str, str], test: str, timeout: float) -> dict[str, Any]:
        payload = {"tests": tests, "test": test, "timeout_s": timeout, "judge_uid": self.judge_uid}
        return self.op("judge", payload, timeout + 60)

    def alive(self) -> bool:
        return self.container.running(settle_s=0.0)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            if self.container.remove():
                leases.release(self)
            else:  # the daemon did not answer: the exit hook (or the next start) tries again
                self.closed = False
