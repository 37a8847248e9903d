"""One locked-down container and how a job reaches it: start, runner install, exec, OOM check.

A container is started once (`sleep infinity` under docker-init) with no network, a read-only
root, tmpfs /w, /tmp and /opt/rlvr, memory = swap, pids, CPU, nofile and fsize limits,
no-new-privileges, and of all capabilities only SETUID, SETGID and KILL, which root (the runner)
needs to start each judge and answer under fresh uids of their own and to stop them; those uids
hold no capability at all. Then the trusted runner is copied into /opt/rlvr. A job is one
`docker exec` of the runner as root, the payload on stdin. The host reads the exec's output with
a byte cap and a watchdog thread that kills the container at the deadline (a stopped process in
the container cannot hang the read), and takes the first valid result line (results.py).

The container's IPC namespace admits no SysV segment, queue or semaphore set and no POSIX
message queue (`IPC_SYSCTLS`): nothing an answer could hand to another owner and leave charged
to the container. An exec that brings back no result after an OOM kill in the container is the
job's doing (its answer used the memory), not the infrastructure's (`ExecOutcome.oom`).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.bundled import PACKAGE, bundled
from rlvr.errors import SandboxError, SandboxSetupError
from rlvr.sandbox.client import daemon_answers, get_client, pool_labels, wait_for_daemon
from rlvr.sandbox.hints import build_hint
from rlvr.sandbox.results import InstallResult, LimitsResult, RunResult, parse_result
from rlvr.sandbox.spec import SandboxSpec

SANDBOX_USER = "10001:10001"
RUNNER_USER = "0:0"
CAPABILITIES = ["SETUID", "SETGID", "KILL"]
RUNNER_FILES = (
    "runner.py", "sweep.py", "pycheck.py", "pytest_main.py", "rlvr_strict.py", "pytest.ini",
    "rpc.py", "answer_server.py", "answer_server.js", "judge.js", "confine.py", "episode.py",
    "judge_main.py", "judge_git.py",
)  # fmt: skip
WATCHDOG_MARGIN_S = 15.0
TMP_INODES = 65536  # bounds what a job can leave for the wipe, whatever the tmpfs size
STDERR_CAP = 64 << 10
# IPC-namespace limits of every container: no SysV shm segment, message queue or semaphore set,
# no POSIX message queue can be made (shmget/msgget/mq_open fail with ENOSPC, semget EINVAL).
IPC_SYSCTLS = {"kernel.shmmni": "0", "kernel.msgmni": "0", "kernel.sem": "0 0 0 0",
               "fs.mqueue.queues_max": "0"}  # fmt: skip
# The container's OOM-kill count as a result line (cgroup v2 or v1), with no process but `sh`.
OOM_KILLS = (
    "for f in /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control; do "
    '[ -r "$f" ] && while read -r k v; do [ "$k" = oom_kill ] && '
    'echo "@@RLVR-RESULT@@{\\"oom_kills\\": $v}"; done < "$f"; done; true'
)
_INSTALL = (
    "import json,os,sys\n"
    "d=json.loads(sys.stdin.buffer.read())\n"
    "for n,c in d.items():\n"
    "    p=os.path.join('/opt/rlvr',n)\n"
    "    open(p,'w').write(c); os.chmod(p,0o444)\n"
    "sys.stdout.write('@@RLVR-RESULT@@'+json.dumps({'ok':True})+'\\n')\n"
)


class InfraFailure(Exception):
    """The daemon or the container failed (not the answer): retry on a fresh container."""


def sandbox_dir() -> Path:
    """The repository's `sandbox/` folder, or its copy inside the installed package."""
    found = bundled("sandbox", "runner/runner.py")
    if found is not None:
        return found
    raise SandboxError(
        f"the sandbox runner files are missing (looked in {PACKAGE / '_builtin'} and "
        f"{PACKAGE.parent})",
        "reinstall rlvr (pip install -e .) so that sandbox/runner/ is present",
    )


def runner_sources() -> dict[str, str]:
    d = sandbox_dir() / "runner"
    return {name: (d / name).read_text(encoding="utf-8") for name in RUNNER_FILES
            if (d / name).is_file()}  # fmt: skip


@dataclass
class ExecOutcome:
    """What one exec returned: the runner's JSON result, or why there is none."""

    result: dict[str, Any] | None
    exit_code: int | None
    stderr: str
    watchdog: bool = False
    oom: bool = False
    """No result, and the container's OOM killer struck during the exec: the job's doing (its
    answer filled the memory and the killer took the runner or the judge), never masked."""


class Container:
    """One warm container and the exec plumbing (payload on stdin, result line on stdout)."""

    def __init__(self, spec: SandboxSpec, owned: dict[str, int] | None = None) -> None:
        """`owned` {path: uid}: more tmpfs mounts, each owned by its uid (an episode's agent
        workspace, a verifier's folders)."""
        client = get_client()  # first: it imports the SDK under a lock (threads race otherwise)
        from docker.types import Ulimit

        mb = spec.tmpfs_mb
        extra = {
            path: f"size={mb}m,mode=755,exec,uid={uid},gid={uid},nr_inodes={TMP_INODES}"
            for path, uid in (owned or {}).items()
        }
        try:
            client.images.get(spec.image)  # containers.run would try a pull, which fails offline
            self.obj = client.containers.run(
                spec.image, ["sleep", "infinity"], detach=True, init=True, read_only=True,
                network_mode="none", user="0:0", working_dir="/", hostname="sandbox",
                environment={"LANG": "C.UTF-8"}, cap_drop=["ALL"], cap_add=CAPABILITIES,
                security_opt=["no-new-privileges"], sysctls=IPC_SYSCTLS,
                mem_limit=f"{spec.memory_mb}m",
                memswap_limit=f"{spec.memory_mb}m", pids_limit=spec.pids_limit,
                nano_cpus=int(spec.cpus * 1e9), labels={**pool_labels(), "rlvr.image": spec.image},
                tmpfs={"/w": f"size={mb}m,mode=755", "/opt/rlvr": "size=8m,mode=755",
                       "/tmp": f"size={mb}m,mode=1777,exec,nr_inodes={TMP_INODES}", **extra},
                ulimits=[Ulimit(name="nofile", soft=spec.nofile, hard=spec.nofile),
                         Ulimit(name="fsize", soft=spec.fsize_mb << 20, hard=spec.fsize_mb << 20)],
            )  # fmt: skip
        except Exception as e:
            _raise_start_error(spec.image, e)
        self.id: str = self.obj.id
        self.jobs = 0
        try:
            out = self.exec(["python3", "-I", "-c", _INSTALL], "0:0", runner_sources(), 60,
                            InstallResult)  # fmt: skip
        except InfraFailure:
            threading.Thread(target=self.discard, daemon=True).start()
            raise
        if not (out.result or {}).get("ok"):
            self.remove()
            raise InfraFailure(f"could not install the runner in {spec.image}: {out.stderr[:300]}")

    def exec(
        self, argv: list[str], user: str, payload: Any, timeout: float,
        kind: type = RunResult, max_bytes: int = 64 << 20,
    ) -> ExecOutcome:  # fmt: skip
        """Run argv with JSON payload on stdin; read at most `max_bytes` until `timeout`.

        A watchdog thread kills the container (and closes the socket) at `timeout`, whatever
        the read is blocked on; output past the cap is dropped, never buffered.
        """
        from docker.errors import DockerException
        from docker.utils.socket import frames_iter

        api = get_client().api
        data = json.dumps(payload).encode()
        out, err = bytearray(), bytearray()
        fired = threading.Event()
        sock = None

        def watchdog() -> None:
            fired.set()
            self.kill()
            if sock is not None:
                with contextlib.suppress(Exception):
                    getattr(sock, "_sock", sock).shutdown(socket.SHUT_RDWR)

        timer = threading.Timer(timeout, watchdog)
        timer.daemon = True
        timer.start()
        try:
            eid = api.exec_create(self.id, argv, stdin=True, user=user, workdir="/")["Id"]
            sock = api.exec_start(eid, socket=True)
            raw = getattr(sock, "_sock", sock)
            raw.settimeout(timeout + 5)  # the watchdog fires first
            raw.sendall(data)
            raw.shutdown(socket.SHUT_WR)
            for stream, chunk in frames_iter(sock, tty=False):
                buf, cap = (out, max_bytes) if stream == 1 else (err, STDERR_CAP)
                if len(buf) < cap:
                    buf.extend(chunk[: cap - len(buf)])
            sock.close()
        except (TimeoutError, OSError) as e:
            if not fired.is_set():
                timer.cancel()
                raise InfraFailure(f"docker exec failed: {e}") from None
        except DockerException as e:
            timer.cancel()
            raise InfraFailure(f"docker exec failed: {e}") from None
        finally:
            timer.cancel()
        if fired.is_set():
            return ExecOutcome(None, None, err.decode("utf-8", "replace"), watchdog=True)
        result = parse_result(out, kind)
        code = 0
        if result is None:  # the exit code only matters when there is no result
            with contextlib.suppress(Exception):
                code = api.exec_inspect(eid).get("ExitCode")
        return ExecOutcome(result, code, err.decode("utf-8", "replace"))

    def running(self, settle_s: float = 1.0) -> bool:
        """Still running after `settle_s`? (a killed container reports so only after a moment)."""
        end = time.monotonic() + settle_s
        while True:
            try:
                self.obj.reload()
                if self.obj.status != "running":
                    return False
            except Exception:
                return False
            if time.monotonic() >= end:
                return True
            time.sleep(0.1)

    def oom_killed(self) -> bool:
        """Has the OOM killer struck in this container? A pooled container never saw one before
        the current exec (a job with an OOM kill retires it), so any kill is this exec's."""
        if not self.running():
            with contextlib.suppress(Exception):
                return bool(self.obj.attrs["State"].get("OOMKilled"))
            return False
        try:  # shell builtins only: the container may still be at its memory limit
            out = self.exec(["sh", "-c", OOM_KILLS], RUNNER_USER, {}, 30, LimitsResult)
        except InfraFailure:
            out = None
        if out is None or out.result is None:  # no answer: stop it and ask the daemon
            self.kill()
            with contextlib.suppress(Exception):
                self.obj.reload()
                return bool(self.obj.attrs["State"].get("OOMKilled"))
            return False
        return bool(out.result.get("oom_kills"))

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.obj.kill()

    def remove(self) -> bool:
        """Remove it now; False when the daemon refused or did not answer."""
        try:
            self.obj.remove(force=True)
        except Exception as e:
            return "No such container" in str(e)
        return True

    def discard(self) -> None:
        """Remove it, waiting for a daemon that does not answer (then removing it once more)."""
        if not self.remove() and not daemon_answers() and wait_for_daemon():
            self.remove()


def _raise_start_error(image: str, e: Exception) -> None:
    from docker.errors import ImageNotFound, NotFound

    if isinstance(e, ImageNotFound | NotFound):
        missing = f"sandbox image {image!r} is not built"
        raise SandboxSetupError(missing, build_hint(image)) from None
    raise InfraFailure(f"could not start a container from {image!r}: {e}") from None
