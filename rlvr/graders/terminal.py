"""Terminal grader (kind "terminal"): the task's tests judge the workspace an agent left.

In an episode the session calls `judge` on the episode's own container once the last turn is
over (rlvr/episodes/terminal.py). Given answers as text (`rlvr grade`, `envs validate
--references`), an answer is a shell script, the agent's actions: it runs in a fresh container
as the agent would run it, through the same bash tool path, and the same judge decides. The
judge's report is plain data from a uid the agent never had (sandbox/runner/episode.py).
"""

from __future__ import annotations

import base64
import json
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rlvr.errors import ManifestError, RlvrError
from rlvr.graders.base import register_grader
from rlvr.manifest import format_validation_error
from rlvr.sandbox.compose import ServiceNetwork, read_compose
from rlvr.sandbox.docker import InfraFailure
from rlvr.sandbox.episode import AgentFault, EpisodeBox, workspace_files
from rlvr.sandbox.harbor_box import HarborBox, folder_files
from rlvr.sandbox.spec import SandboxSpec, load_spec
from rlvr.sandbox.task_images import TaskImageError, task_image, task_service_image
from rlvr.sandbox.toolbox import require as require_toolbox
from rlvr.types import Flag, Task, TestOutcome, Verdict

SCRIPT_TIMEOUT_S = 600.0


def environment_files(task: Task) -> tuple[dict[str, Any], list[str]]:
    """The files laid out in /app at the start: environment/workspace/ and the Dockerfile's
    COPY lines (a copied folder keeps its tree)."""
    env_dir = Path(task.meta["task_dir"]) / "environment"
    files, executable = workspace_files(env_dir / "workspace")
    for src, dest in task.meta.get("copies", []):
        source = (env_dir / src).resolve()
        if not source.is_relative_to(env_dir.resolve()) or not source.exists():
            raise RlvrError(f"task {task.id}: COPY {src} names no file of environment/",
                            "fix the COPY line or add the file")  # fmt: skip
        if source.is_dir():
            more, exe = workspace_files(source)
            prefix = dest.rstrip("/") + "/" if dest not in ("", ".") else ""
            files.update({prefix + k: v for k, v in more.items()})
            executable += [prefix + e for e in exe]
        else:
            rel = dest if dest and not dest.endswith("/") else dest + source.name
            one, exe = workspace_files(source.parent)
            files[rel] = one[source.name]
            executable += [rel] if source.name in exe else []
    return files, executable


def test_files(task: Task) -> dict[str, str]:
    """The task's tests folder as {relative path: text}; read only when the judge runs."""
    folder = Path(task.meta["task_dir"]) / "tests"
    return {
        p.relative_to(folder).as_posix(): p.read_text("utf-8")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


class TerminalOptions(BaseModel):
    """`[grader.options]` of a terminal environment (the registry adds sandbox, env_dir)."""

    model_config = ConfigDict(extra="forbid")

    sandbox: dict[str, Any] | None = None
    env_dir: str | None = None
    reward: Literal["all_pass", "fraction"] = "all_pass"
    output_limit_kb: int = Field(default=16, ge=1, le=1024, description="Per bash call.")
    toolbox: bool = Field(default=True, description="Harbor mode: the offline test toolbox on "
                          "the verifier's PATH (rlvr.sandbox.toolbox).")  # fmt: skip

    def toolbox_dir(self) -> Path | None:
        return require_toolbox() if self.toolbox else None

    @staticmethod
    def build_log(line: str) -> None:
        """A task image's build steps on stderr (the first episode of a task builds it)."""
        if line.startswith(("Step ", "built ")):
            print(f"  [image] {line[:160]}", file=sys.stderr, flush=True)


class _Report(BaseModel):
    model_config = ConfigDict(extra="forbid")

    class _Test(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: str = Field(max_length=200)
        outcome: Literal["passed", "failed", "error"]
        message: str = Field(default="", max_length=2000)

    tests: list[_Test] = Field(max_length=1000)


class TerminalGrader:
    """Judges terminal tasks in the environment's image."""

    name = "terminal"

    def __init__(self, options: TerminalOptions) -> None:
        if options.sandbox is None:
            raise ManifestError("a terminal environment needs a [sandbox] table (its image)")
        self.options = options
        self.spec: SandboxSpec = load_spec(options.sandbox, options.env_dir)

    def extract(self, completion: str) -> str:
        return completion

    def open_box(self, task: Task) -> EpisodeBox | HarborBox:
        """A fresh container with the task laid out: rlvr's own tasks get the environment's
        image with the workspace and setup.sh; Harbor tasks their own image (built once)."""
        if task.meta.get("judge") == "harbor":
            return self._open_harbor(task)
        folder = Path(task.meta["task_dir"])
        files, executable = environment_files(task)
        setup = folder / "environment" / "setup.sh"
        box = EpisodeBox(self.spec)
        try:
            opened = box.open(files, executable,
                              setup.read_text("utf-8") if setup.is_file() else None,
                              float(task.meta.get("agent_timeout_s", 30)))  # fmt: skip
            done = opened.get("setup")
            if done is not None and done.get("exit_code") != 0:
                raise InfraFailure(f"task {task.id}: setup.sh failed: {done.get('output', '')}")
        except BaseException:
            box.close()
            raise
        return box

    def _open_harbor(self, task: Task) -> HarborBox:
        """The task's image (TaskImageError when it cannot be had) and one container of it."""
        image = task_image(task, self.options.build_log)
        meta, services = task.meta, None
        if task.meta.get("compose"):
            env_dir = Path(task.meta["task_dir"]) / "environment"
            main_env, wanted = read_compose(env_dir / task.meta["compose"])
            images = [(s, task_service_image(task, s, self.options.build_log)) for s in wanted]
            services = ServiceNetwork(images, self.spec.memory_mb, self.spec.pids_limit)
            meta = {**meta, "env": {**(meta.get("env") or {}), **main_env}}
        return HarborBox(image, self.spec, meta, self.options.toolbox_dir(),
                         network="agent" in (meta.get("network") or []),
                         services=services)  # fmt: skip

    def judge(self, box: EpisodeBox | HarborBox, task: Task) -> Verdict:
        """Run the task's tests on what the episode left in `box` (after its processes)."""
        timeout = float(task.meta.get("verifier_timeout_s", 120))
        if isinstance(box, HarborBox):
            return self._judge_harbor(box, task, timeout)
        try:
            r = box.judge(test_files(task), "test.py", timeout)
        except AgentFault as e:
            return Verdict.reject(f"the judge could not run: {e}", cause=e.cause)  # type: ignore[arg-type]
        except InfraFailure as e:
            return Verdict.error("infra_error", f"the judge could not run: {e}")
        if "error" in r:
            if r.get("agent_fault"):
                return Verdict.reject(f"the judge could not run: {r['error'][:300]}",
                                      cause="runner_killed")  # fmt: skip
            return Verdict.error("grader_error", f"terminal judge: {str(r['error'])[:300]}")
        if r.get("timed_out"):
            return Verdict.reject("the tests passed their deadline", cause="timeout")
        if r.get("workspace_changed"):  # what later checks read is no longer what the agent left
            return Verdict.reject(f"a program of the agent's that the tests ran changed "
                                  f"{str(r['workspace_changed'])[:200]} in the workspace while "
                                  "it was judged", cause="bad_report")  # fmt: skip
        try:
            report = _Report.model_validate(json.loads(r.get("report") or "null"))
        except (ValueError, ValidationError):
            tail = str(r.get("output", ""))[-500:]
            return Verdict.error("grader_error", f"the tests gave no report: {tail}")
        if not report.tests:
            return Verdict.error("grader_error", f"task {task.id} has no test_* function")
        tests = [TestOutcome(name=t.name, outcome=t.outcome, message=t.message,
                             visibility="hidden") for t in report.tests]  # fmt: skip
        passed = sum(t.outcome == "passed" for t in tests)
        n = len(tests)
        if passed == n:
            return Verdict.score(1.0, f"all {n} tests passed", tests=tests)
        first = next(t for t in tests if t.outcome != "passed")
        value = passed / n if self.options.reward == "fraction" else 0.0
        reason = f"{passed}/{n} tests passed; {first.name}: {first.message[:300]}"
        return Verdict.score(value, reason, passed=False, tests=tests, cause="tests_failed")

    def _judge_harbor(self, box: HarborBox, task: Task, timeout: float) -> Verdict:
        """Harbor's verifier and reward file (the weaker mode; rlvr/sandbox/harbor_box.py)."""
        folder = Path(task.meta["task_dir"]) / "tests"
        try:
            box.set_network("verifier" in (task.meta.get("network") or []))
            r = box.verify(folder_files(folder), timeout, dict(task.meta.get("verifier_env") or {}),
                           toolbox=self.options.toolbox_dir() is not None)  # fmt: skip
        except AgentFault as e:
            return Verdict.reject(f"the verifier could not run: {e}", cause=e.cause)  # type: ignore[arg-type]
        except InfraFailure as e:
            return Verdict.error("infra_error", f"the verifier could not run: {e}")
        tail = str(r.get("output", ""))[-300:]
        tests = [TestOutcome(visibility="hidden", **t) for t in parse_ctrf(r.get("ctrf"))]
        if task.meta.get("network_declared") and not task.meta.get("network"):
            tail += (" [the task declares network access and ran offline; where network is "
                     "reachable, set [tasks] args.allow_network = true]")  # fmt: skip
        flags = [Flag(kind=_harbor_flag_kind(f), evidence=str(f)[:300])
                 for f in r.get("flags", [])]  # fmt: skip
        note = f" [flags: {'; '.join(f.evidence for f in flags)}]" if flags else ""
        if r.get("timed_out"):
            return Verdict.reject(f"the verifier passed its deadline{note}", cause="timeout")
        value = _harbor_reward(r.get("reward_file"), str(r.get("reward_text", "")))
        if value is None:
            wrote = r.get("reward_file")
            what = (
                (
                    f"{wrote} is not a reward ({str(r.get('reward_text', ''))[:200]!r}; "
                    "a number, or a JSON object of numbers)"
                )
                if wrote
                else "no reward file"
            )
            return Verdict.reject(f"the verifier wrote {what}{note}: {tail}",
                                  cause="no_test_ran")  # fmt: skip
        if value >= 1.0:
            return Verdict.score(1.0, f"the verifier's reward is 1{note}", tests=tests,
                                 flags=flags)  # fmt: skip
        return Verdict.score(max(0.0, value), f"the verifier's reward is {value:g}{note}: {tail}",
                             passed=False, cause="tests_failed", tests=tests,
                             flags=flags)  # fmt: skip

    def run_script(self, task: Task, script: str) -> Verdict:
        """Replay an agent's actions (a shell script) in a fresh container, then judge.

        For a Harbor task the task's own reference (solve.sh's text) runs as Harbor's oracle:
        the whole solution/ folder at /solution, then `bash /solution/solve.sh`."""
        try:
            box = self.open_box(task)
        except TaskImageError as e:
            return Verdict.error("grader_error", f"the task cannot run here: {e}")
        except InfraFailure as e:
            return Verdict.error("infra_error", str(e))
        try:
            limit = self.options.output_limit_kb << 10
            if isinstance(box, HarborBox) and task.reference and script == task.reference:
                solution = folder_files(Path(task.meta["task_dir"]) / "solution")
                env = dict(task.meta.get("solution_env") or {})
                box.oracle(solution, float(task.meta.get("agent_timeout_s", 600)), limit, env)
            else:  # a stored episode: each action its own call, as the episode ran them
                for action, timeout in split_actions(script):
                    if isinstance(action, tuple):  # a write_file call, replayed as one
                        box.write(*action)
                        continue
                    ran = box.bash(action, timeout, limit)
                    if ran.get("lingering"):
                        return Verdict.reject("processes the answer started would not die",
                                              cause="lingering_processes")  # fmt: skip
            return self.judge(box, task)
        except AgentFault as e:
            return Verdict.reject(f"the answer broke its container: {e}", cause=e.cause)  # type: ignore[arg-type]
        except InfraFailure as e:
            return Verdict.error("infra_error", str(e))
        finally:
            box.close()

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        return [self.run_script(task, a) for a in answers]


ACTION_LINE = re.compile(  # one line of rlvr.episodes.terminal.actions_script
    r"\A\(cd \S+ && timeout -k 2 ([0-9.]+(?:e[-+]?[0-9]+)?) "
    r"bash -c \"\$\(printf %s ([A-Za-z0-9+/=]*) \| base64 -d\)\"\)\Z"
)
WRITE_ACTION = re.compile(  # a write_file call as the session stores it
    r'\Amkdir -p -- "\$\(dirname -- (.+?)\)" && printf %s ([A-Za-z0-9+/=]*) \| base64 -d > (.+)\Z',
    re.DOTALL,
)
Action = tuple[str | tuple[str, str], float]


def _as_write(action: str) -> tuple[str, str] | None:
    """(path, content) of a stored write_file action: replayed as a write, not through `bash
    -c` (twice base64, a large file would pass the kernel's limit on one argument)."""
    m = WRITE_ACTION.match(action)
    if m is None or m.group(1) != m.group(3):
        return None
    try:
        [path] = shlex.split(m.group(1))
        return path, base64.b64decode(m.group(2)).decode("utf-8")
    except ValueError:
        return None


def split_actions(script: str) -> list[Action]:
    """The calls to replay a script with: one per action of a stored episode (each line that
    `actions_script` wrote, under its own time limit plus a margin, its processes ended before
    the next as in the episode; a write as a write), else the whole script as one call."""
    lines = script.splitlines()
    found = [ACTION_LINE.match(ln) for ln in lines]
    if not lines or not all(found):
        return [(script, SCRIPT_TIMEOUT_S)] if script.strip() else []
    out: list[Action] = []
    for line, m in zip(lines, found, strict=True):
        assert m is not None
        inner = base64.b64decode(m.group(2)).decode("utf-8", "surrogatepass")
        out.append((_as_write(inner) or line, float(m.group(1)) + 10.0))
    return out


REWARD_TEXT = re.compile(r"\A\s*-?[0-9]+(?:\.[0-9]+)?\s*\Z", re.ASCII)


def _harbor_flag_kind(line: str) -> str:
    if line.startswith("test-runner"):
        return "test_runner_shadow"
    if line.startswith("link out of"):
        return "outside_workspace"
    return "verifier_paths_written"


def _harbor_reward(name: str | None, text: str) -> float | None:
    """Harbor's reward: reward.txt holds a decimal number, reward.json an object whose "reward"
    is a JSON number. Anything else (`1_0`, a full-width digit, `true`, `"1"`, a key given twice)
    is no reward."""
    if name == "reward.txt":
        return float(text) if REWARD_TEXT.match(text) else None
    if name != "reward.json":
        return None

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            raise ValueError("a key given twice")
        return dict(pairs)

    try:  # nesting past the parser's depth, or an integer past a float, is no reward
        data = json.loads(text, object_pairs_hook=unique)
        # one reward, or several named ones (Harbor's multi-reward tasks): their mean
        values = [data["reward"]] if isinstance(data, dict) and "reward" in data else (
            list(data.values()) if isinstance(data, dict) and data else [None])  # fmt: skip
        if any(isinstance(v, bool) or not isinstance(v, int | float) for v in values):
            return None
        value = sum(float(v) for v in values) / len(values)
    except (ValueError, RecursionError, OverflowError):
        return None
    return value if value == value and abs(value) != float("inf") else None


def parse_ctrf(text: str | None) -> list[dict[str, str]]:
    """The ctrf report's tests as {name, outcome, message} (empty when absent or unreadable)."""
    try:
        tests = json.loads(text or "null")["results"]["tests"]
    except (ValueError, KeyError, TypeError, RecursionError):
        return []
    out = []
    for t in tests[:1000] if isinstance(tests, list) else []:
        if not isinstance(t, dict):
            continue
        status = str(t.get("status", ""))
        outcome = "passed" if status == "passed" else "failed" if status == "failed" else "error"
        out.append({"name": str(t.get("name", ""))[:200], "outcome": outcome,
                    "message": str(t.get("message") or t.get("trace") or "")[:2000]})  # fmt: skip
    return out


@register_grader("terminal")
def make_terminal_grader(**options: Any) -> TerminalGrader:
    """Factory for `grader.kind = "terminal"`."""
    try:
        return TerminalGrader(TerminalOptions.model_validate(options))
    except ValidationError as e:
        raise ManifestError(format_validation_error("grader.options (terminal)", e)) from None
