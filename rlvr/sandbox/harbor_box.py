"""Harbor mode: one container of the task's own image for one episode, in Harbor's order of events.

Harbor (the runner of Terminal-Bench 2) builds the task's image, keeps one container for the
whole trial, runs the agent's commands with `exec` as the image's USER in its WORKDIR, uploads
solution/ to /solution for the oracle, copies tests/ to /tests after the agent, runs test.sh as
`[verifier].user` (root unless the task says otherwise) in the same container, and reads
/logs/verifier/reward.txt or reward.json. `HarborBox` does the same against the local Docker
Engine, with rlvr's limits around it: no network unless the user allows it, memory and CPUs
from task.toml capped by the environment's [sandbox], a pids and per-file size limit, a
deadline on every exec, and the offline test toolbox (rlvr.sandbox.toolbox) on the verifier's
PATH. It is the weaker judge (sandbox/SECURITY.md): the verifier runs where the agent ran.
"""

from __future__ import annotations

import contextlib
import io
import secrets
import shlex
import socket
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from rlvr.sandbox import leases
from rlvr.sandbox.client import daemon_answers, get_client, pool_labels
from rlvr.sandbox.compose import ServiceNetwork
from rlvr.sandbox.container import InfraFailure
from rlvr.sandbox.episode import AgentFault
from rlvr.sandbox.harbor_flags import abuse_script, findings
from rlvr.sandbox.spec import SandboxSpec
from rlvr.sandbox.task_images import TaskImageError
from rlvr.sandbox.toolbox import MOUNT, VERIFIER_ENV

EXEC_MARGIN_S = 10.0
KILL_AFTER_S = 2
REWARD_CAP = 64 << 10
CTRF_CAP = 1 << 20
DROPPED_CAPS = ["NET_RAW", "MKNOD", "AUDIT_WRITE", "SETFCAP"]
"""Docker's default capabilities less these. No no-new-privileges: with it, `exec -u root` in
an image whose USER is not root gets no capabilities, and Harbor's root verifier could not
write into the agent's workspace; setuid programs the image ships (sudo) work as in Harbor."""
BASE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


@dataclass
class Exec:
    """One command's result: exit code (None when stopped), output (capped), its full size."""

    exit_code: int | None
    output: bytes
    output_bytes: int
    timed_out: bool


def tar_of(files: dict[str, bytes]) -> bytes:
    """A tar of {relative path: bytes}, root's; `*.sh` files executable."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for rel, data in sorted(files.items()):
            info = tarfile.TarInfo(rel)
            info.size = len(data)
            info.mode = 0o755 if rel.endswith(".sh") else 0o644
            info.mtime = int(time.time())
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def folder_files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


class HarborBox:
    """A container of a Harbor task's image, kept for one episode; every method is one exec
    (InfraFailure when the daemon or the container fails, never for what the agent did)."""

    def __init__(self, image: str, spec: SandboxSpec, meta: dict[str, Any],
                 toolbox: Path | None, network: bool = False,
                 services: ServiceNetwork | None = None) -> None:  # fmt: skip
        """`network`: start on Docker's bridge network (the agent phase may reach out);
        `set_network` changes it between phases. `services`: the task's compose services,
        whose private network this container joins as `main` (closed with the box)."""
        self.services = services
        client = get_client()  # first: it imports the SDK under a lock (threads race otherwise)
        from docker.types import Ulimit

        config = client.images.get(image).attrs.get("Config") or {}
        self.user = str(meta.get("agent_user") or config.get("User") or "root")
        self.workdir = str(meta.get("workdir") or config.get("WorkingDir") or "/")
        self.verifier_user = str(meta.get("verifier_user") or "root")
        image_env = dict(e.split("=", 1) for e in config.get("Env") or [] if "=" in e)
        self.path = image_env.get("PATH", BASE_PATH)
        self.env = {str(k): str(v) for k, v in (meta.get("env") or {}).items()}
        memory = min(int(meta.get("memory_mb") or spec.memory_mb), spec.memory_mb)
        cpus = min(float(meta.get("cpus") or spec.cpus), spec.cpus)
        volumes = {str(toolbox): {"bind": MOUNT, "mode": "ro"}} if toolbox else {}
        self.closed = False
        try:
            leases.opening()
            # an image with an ENTRYPOINT (one that starts the task's services) keeps it, as in
            # Harbor, with `sleep infinity` for its arguments; else PID 1 is root's sleep
            entry = config.get("Entrypoint")
            keep = {"command": ["sleep", "infinity"]} if entry else {
                "command": ["infinity"], "entrypoint": ["sleep"], "user": "0:0"}  # fmt: skip
            self.obj = client.containers.run(
                image, detach=True, init=True, **keep,
                network_mode=services.name if services else "bridge" if network else "none",
                hostname="sandbox",
                environment=self.env, cap_drop=DROPPED_CAPS,
                mem_limit=f"{memory}m",
                memswap_limit=f"{memory}m", pids_limit=spec.pids_limit,
                nano_cpus=int(cpus * 1e9), volumes=volumes, working_dir=self.workdir,
                labels={**pool_labels(), "rlvr.image": image, "rlvr.mode": "harbor"},
                ulimits=[Ulimit(name="nofile", soft=spec.nofile, hard=spec.nofile),
                         Ulimit(name="fsize", soft=spec.fsize_mb << 20,
                                hard=spec.fsize_mb << 20)],
            )  # fmt: skip
        except Exception as e:
            if services is not None:
                services.close()
            raise InfraFailure(f"could not start a container of {image!r}: {e}") from None
        self.id: str = self.obj.id
        leases.hold(self)
        try:
            r = self.root(
                "mkdir -p /logs/agent /logs/verifier && chmod 777 /logs/agent && "
                "touch /logs/.start && command -v bash >/dev/null && command -v timeout >/dev/null"
            )
        except BaseException:
            self.close()
            raise
        if r.exit_code != 0:
            self.obj.reload()
            running = (self.obj.attrs.get("State") or {}).get("Running")
            logs = b""
            with contextlib.suppress(Exception):
                logs = self.obj.logs(tail=20)
            self.close()
            if not running:
                raise TaskImageError(f"the container of {image!r} stopped at start (its "
                                     f"ENTRYPOINT exited): {logs[-500:]!r}",
                                     "an ENTRYPOINT must end with `exec \"$@\"`")  # fmt: skip
            raise TaskImageError(f"image {image!r} lacks bash or timeout, which Harbor mode "
                                 f"runs commands with: {r.output[-300:]!r}",
                                 "install bash and coreutils in the task's image")  # fmt: skip
        for role, who in (("agent", self.user), ("verifier", self.verifier_user)):
            name = who.split(":")[0]  # a bare uid needs no entry in /etc/passwd
            if not name.isdigit() and self.root(f"id -u -- {shlex.quote(name)}").exit_code:
                self.close()  # the task's own mistake, found before the agent ran
                raise TaskImageError(
                    f"the {role} user {who!r} does not exist in {image!r}",
                    f"create the user in the image or fix [{role}].user",
                )

    def exec(self, argv: list[str], user: str, timeout: float, cap: int = 1 << 20,
             stdin: bytes | None = None, workdir: str | None = None,
             env: dict[str, str] | None = None) -> Exec:  # fmt: skip
        """argv under `timeout -k 2 T` (its process group is killed at T); output capped.

        A process that outlives the command and keeps its output open (a server started in
        the background without redirection) cannot hold the call: the read stops at the
        deadline and the command counts as timed out; Harbor mode leaves such processes running.
        """
        from docker.errors import DockerException
        from docker.utils.socket import frames_iter

        api = get_client().api
        wrapped = ["timeout", "-k", str(KILL_AFTER_S), f"{max(timeout, 0.1):g}", *argv]
        start = time.monotonic()
        out = bytearray()
        total = 0
        stopped = False
        try:
            made = api.exec_create(self.id, wrapped, stdin=stdin is not None, user=user,
                                   workdir=workdir or self.workdir, environment=env)  # fmt: skip
            eid = made["Id"]
            sock = api.exec_start(eid, socket=True)
            raw = getattr(sock, "_sock", sock)
            deadline = time.monotonic() + timeout + KILL_AFTER_S + EXEC_MARGIN_S
            raw.settimeout(max(1.0, deadline - time.monotonic()))
            if stdin is not None:
                raw.sendall(stdin)
                raw.shutdown(socket.SHUT_WR)
            try:
                for _stream, chunk in frames_iter(sock, tty=False):
                    total += len(chunk)
                    if len(out) < cap:
                        out.extend(chunk[: cap - len(out)])
                    if time.monotonic() > deadline:
                        stopped = True
                        break
                    raw.settimeout(max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                stopped = True
            with contextlib.suppress(Exception):
                sock.close()
            info = api.exec_inspect(eid)
        except (OSError, DockerException) as e:
            self._check_alive()
            raise InfraFailure(f"docker exec failed: {e}") from None
        code = None if info.get("Running") else info.get("ExitCode")
        # 124/137 are also what a command that kills itself exits with: only the clock says
        # whether the deadline stopped it
        late = time.monotonic() - start >= timeout
        timed_out = stopped or (code in (124, 137) and late)
        if code is None and not stopped:
            self._check_alive()
        return Exec(None if stopped else code, bytes(out), total, timed_out)

    def _check_alive(self) -> None:
        """A container that stopped while the daemon answers was stopped from inside (its init
        killed by a root agent, or its memory filled): the agent's doing, never masked."""
        if not daemon_answers():
            return
        try:
            self.obj.reload()
            state = self.obj.attrs.get("State") or {}
        except Exception:
            return
        if not state.get("Running"):
            cause = "memory_limit" if state.get("OOMKilled") else "runner_killed"
            raise AgentFault(cause, "the task's container stopped during the episode "
                             f"(exit {state.get('ExitCode')}): the agent's doing")  # fmt: skip

    def _blame(self, what: str, e: Exception) -> NoReturn:
        """A daemon call on the container that failed while the daemon answers and the
        container runs: the agent bent the paths it touches (a link loop in /logs/verifier, a
        file where a folder goes), scored 0. The daemon's own words stay out of the reason
        (they name host paths)."""
        if not daemon_answers():
            raise InfraFailure(f"cannot {what}: {e}") from None
        self._check_alive()
        raise AgentFault("runner_killed", f"cannot {what} in the task's container: the agent "
                         "left the path unusable") from None  # fmt: skip

    def root(self, script: str, timeout: float = 30) -> Exec:
        return self.exec(["sh", "-c", script], "root", timeout, workdir="/")

    def setup(self, script: str, what: str) -> None:
        """A step of Harbor's own (root, in the agent's container) that must succeed. Its
        failure while the container runs and the daemon answers is the agent's doing (it
        filled the process table, removed `sh` or `timeout`, ...): scored 0, never masked."""
        r = self.root(script)
        if r.exit_code == 0:
            return
        said = r.output.decode("utf-8", "replace")[-300:].strip()
        if not daemon_answers():
            raise InfraFailure(f"cannot {what}: {said!r}")
        self._check_alive()
        raise AgentFault("runner_killed", f"cannot {what} in the task's container ({said!r}): "
                         "the agent left it unable to run the verifier")  # fmt: skip

    # the agent's tools -------------------------------------------------------------------
    def bash(self, command: str, timeout: float, output_limit: int) -> dict[str, Any]:
        r = self.exec(["bash", "-c", command], self.user, timeout, output_limit)
        return {"exit_code": r.exit_code, "output": r.output.decode("utf-8", "replace"),
                "output_bytes": r.output_bytes, "timed_out": r.timed_out,
                "oom": self.oom_killed() if r.exit_code == 137 else False}  # fmt: skip

    def read(self, path: str, limit: int) -> dict[str, Any]:
        r = self.exec(["head", "-c", str(limit + 1), "--", path], self.user, 30, limit + 4096)
        if r.exit_code != 0:
            return {"ok": False, "problem": r.output.decode("utf-8", "replace")[-500:].strip()}
        return {"ok": True, "content": r.output[:limit].decode("utf-8", "replace"),
                "cut": len(r.output) > limit}  # fmt: skip

    def write(self, path: str, content: str) -> dict[str, Any]:
        script = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"'
        r = self.exec(["sh", "-c", script, "write", path], self.user, 30, 4096,
                      stdin=content.encode())  # fmt: skip
        if r.exit_code != 0:
            return {"ok": False, "problem": r.output.decode("utf-8", "replace")[-500:].strip()}
        return {"ok": True}

    # Harbor's phases ---------------------------------------------------------------------
    def upload(self, files: dict[str, bytes], dest: str, mode: str = "755") -> None:
        """Write files under `dest` (created fresh, root's, `mode`)."""
        self.setup(f"rm -rf {shlex.quote(dest)} && mkdir -p {shlex.quote(dest)} && "
                   f"chmod {mode} {shlex.quote(dest)}", f"create {dest}")  # fmt: skip
        try:
            self.obj.put_archive(dest, tar_of(files))
        except Exception as e:
            self._blame(f"copy files to {dest}", e)

    def oracle(self, solution: dict[str, bytes], timeout: float, output_limit: int,
               env: dict[str, str]) -> dict[str, Any]:  # fmt: skip
        """Harbor's oracle agent: solution/ at /solution, solve.sh run as the agent."""
        self.upload(solution, "/solution")
        r = self.exec(["bash", "/solution/solve.sh"], self.user, timeout, output_limit,
                      env={"DEBIAN_FRONTEND": "noninteractive", **env})  # fmt: skip
        return {"exit_code": r.exit_code, "output": r.output.decode("utf-8", "replace"),
                "timed_out": r.timed_out}  # fmt: skip

    def verify(self, tests: dict[str, bytes], timeout: float, env: dict[str, str],
               toolbox: bool) -> dict[str, Any]:  # fmt: skip
        """tests/ to /tests, test.sh as the verifier user, then the reward and ctrf files."""
        flags = self._abuse_flags()
        self.setup("rm -rf /solution /logs/verifier && mkdir -p /logs/verifier && "
                   f"{{ chown {shlex.quote(self.verifier_user)} /logs/verifier 2>/dev/null; "
                   "chmod 755 /logs/verifier; }", "prepare /logs/verifier")  # fmt: skip
        self.upload(tests, "/tests", "700")
        # the verifier's own scratch (uv's cache, TMPDIR): a fresh folder only it can write, so
        # nothing the agent left in /tmp (a planted uv cache) reaches the test runner
        scratch = f"/tmp/rlvr-verifier-{secrets.token_hex(8)}"
        user = shlex.quote(self.verifier_user)
        self.setup(f"{{ chown -R {user} /tests 2>/dev/null; true; }} && mkdir -m 700 {scratch} "
                   f"&& chown {user} {scratch}", "make the verifier's scratch folder")  # fmt: skip
        venv = {**VERIFIER_ENV, **env} if toolbox else dict(env)
        venv.update({"UV_CACHE_DIR": f"{scratch}/uv-cache", "TMPDIR": scratch})
        venv["PATH"] = (f"{MOUNT}/bin:" if toolbox else "") + self.path
        r = self.exec(["bash", "/tests/test.sh"], self.verifier_user, timeout, 64 << 10,
                      env=venv)  # fmt: skip
        reward = self._reward()
        ctrf = self._fetch("/logs/verifier/ctrf.json", CTRF_CAP)
        flags += [f for f in self._abuse_flags(after=True) if f not in flags]
        return {"exit_code": r.exit_code, "output": r.output.decode("utf-8", "replace")[-8000:],
                "timed_out": r.timed_out, "reward_file": reward[0], "reward_text": reward[1],
                "ctrf": ctrf.decode("utf-8", "replace") if ctrf else None,
                "flags": flags}  # fmt: skip

    def _abuse_flags(self, after: bool = False) -> list[str]:
        """What the agent left where Harbor's verifier would trust it (hack flags)."""
        return findings(self.root(abuse_script(self.workdir, after)).output)

    def _reward(self) -> tuple[str | None, str]:
        for name in ("reward.txt", "reward.json"):
            data = self._fetch(f"/logs/verifier/{name}", REWARD_CAP)
            if data is not None:
                return name, data.decode("utf-8", "replace")
        return None, ""

    def _fetch(self, path: str, cap: int) -> bytes | None:
        """A regular file's first `cap` bytes, read by the daemon (None: no such file)."""
        from docker.errors import NotFound

        try:
            stream, _stat = self.obj.get_archive(path)
        except NotFound:
            return None
        except Exception as e:
            self._blame(f"read {path}", e)
        buf = bytearray()
        for chunk in stream:
            buf.extend(chunk)
            if len(buf) > cap + (1 << 16):
                break
        try:
            with tarfile.open(fileobj=io.BytesIO(bytes(buf)), mode="r|") as tar:
                for member in tar:
                    if member.isfile():
                        fh = tar.extractfile(member)
                        return fh.read(cap) if fh else None
                    return None
        except tarfile.TarError:
            return None
        return None

    def alive(self) -> bool:
        try:
            self.obj.reload()
        except Exception:
            return False
        return bool((self.obj.attrs.get("State") or {}).get("Running"))

    def set_network(self, on: bool) -> None:
        """Connect to or cut from the bridge network (a phase's declared network)."""
        try:
            self.obj.reload()
            connected = "bridge" in (self.obj.attrs["NetworkSettings"]["Networks"] or {})
            if on != connected:
                net = get_client().networks.get("bridge")
                (net.connect if on else net.disconnect)(self.obj)
        except Exception as e:
            raise InfraFailure(f"cannot change the container's network: {e}") from None

    def oom_killed(self) -> bool:
        r = self.root("cat /sys/fs/cgroup/memory.events 2>/dev/null | grep '^oom_kill ' || true")
        parts = r.output.decode().split()
        return len(parts) == 2 and parts[1] != "0"

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            leases.release(self)
            with contextlib.suppress(Exception):
                self.obj.remove(force=True)
            if self.services is not None:
                self.services.close()
