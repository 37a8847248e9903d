"""Harbor mode against a real Docker Engine: tasks in Harbor's layout (datasets/harbor) build
their own images, run in one container per episode as the image's USER, and are judged by
their own tests/test.sh and reward file, offline, with the test toolbox."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scripted_episodes import call, episodes
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.episodes.run import EpisodeRunner
from rlvr.episodes.terminal import actions_script
from rlvr.errors import RlvrError
from rlvr.policies.base import SamplingConfig
from rlvr.registry import load_env
from rlvr.sandbox.client import get_client
from rlvr.sandbox.standins import standin
from rlvr.sandbox.toolbox import build as build_toolbox
from rlvr.tasksets.terminal import load_all, load_tasks

PAYLOADS = Path(__file__).resolve().parent / "abuse_payloads" / "harbor"
STANDINS = ("ubuntu:24.04", "alpine:3.19", "python:3.13-slim-bookworm")


@pytest.fixture(scope="module")
def env():  # type: ignore[no-untyped-def]
    """The bundled Harbor examples, with the stand-ins and toolbox they need offline."""
    for name in STANDINS:
        standin(name)
    build_toolbox(log=lambda _line: None)
    return load_env("harbor-examples")


def test_each_refused_task_is_refused_alone_with_its_reason(tmp_path: Path) -> None:
    tasks, refused = load_all("harbor")
    assert len(tasks) == 12 and {t.meta["judge"] for t in tasks} == {"harbor"} and not refused
    # a compose file that would reach the host refuses its task, and only it
    bad = tmp_path / "host-volume"
    (bad / "environment").mkdir(parents=True)
    (bad / "tests").mkdir()
    (bad / "instruction.md").write_text("x\n")
    (bad / "tests" / "test.sh").write_text("true\n")
    (bad / "environment" / "Dockerfile").write_text("FROM ubuntu:24.04\n")
    (bad / "environment" / "docker-compose.yaml").write_text(
        "services:\n  db:\n    image: ubuntu:24.04\n    volumes: ['/:/host']\n"
    )
    assert load_all(str(tmp_path))[1][0].reason.endswith("would reach the host (not supported)")


def test_every_reference_passes_offline_and_refusals_are_named(env) -> None:  # type: ignore[no-untyped-def]
    """RUN/ENV/USER/WORKDIR, a root-only file, a test.sh writing into /app, a server left
    running, reward.json, ctrf, uvx pytest through the toolbox, a docker_image task, a compose
    task with a second service on a private network, an ENTRYPOINT that starts a service."""
    result = CliRunner().invoke(app, ["envs", "validate", "harbor-examples", "--references"])
    assert result.exit_code == 0, result.output
    assert "all 12 reference solutions pass" in result.output


def test_ctrf_tests_are_kept_and_wrong_or_empty_answers_fail(env) -> None:  # type: ignore[no-untyped-def]
    task = env.task("hello-world")
    ref, empty, wrong = env.grade(task, [task.reference or "", "", "echo hi > /app/hello.txt"])
    assert (ref.reward, empty.reward, wrong.reward) == (1.0, 0.0, 0.0), (ref.reason, wrong.reason)
    assert {t.name.rsplit("::", 1)[-1] for t in ref.tests} == {
        "test_hello_file_exists", "test_hello_file_contents"}  # fmt: skip
    assert [t.outcome for t in wrong.tests].count("failed") == 1


def test_an_episode_acts_as_the_image_user_and_its_answer_replays(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    task = env.task("user-env-workdir")
    solve = [
        call("bash", command="id -un; pwd"),
        call("bash", command='printf "%s\\n" "$GREETING" > greeting.txt'),
        call("read_file", path="greeting.txt"),
        call("submit"),
    ]
    root_written = [call("write_file", path="/srv/work/greeting.txt", content="bonjour\n"),
                    call("submit")]  # fmt: skip
    group = episodes(env, task, [solve, root_written, []], tmp_path)
    rewards = [r.verdict.reward for r in group]  # type: ignore[union-attr]
    reasons = [r.verdict.reason for r in group]  # type: ignore[union-attr]
    # write_file acts as the image's USER too, so the second answer passes: same owner
    assert rewards == [1.0, 1.0, 0.0], reasons
    ep = group[0].sample.episode
    assert ep is not None
    assert ep.turns[0].observations[0].content.split()[-2:] == ["agent", "/srv/work"]
    assert ep.turns[2].observations[0].content == "bonjour\n"
    assert env.grade(task, [group[0].sample.text])[0].reward == 1.0


def test_a_stored_answer_runs_each_command_as_its_own_shell(env) -> None:  # type: ignore[no-untyped-def]
    """A stray `)` in one command breaks that command only, in the episode and in a regrade."""
    task = env.task("hello-world")
    script = actions_script([("echo oops )", 5), ('echo "Hello, world!" > hello.txt', 5)], "/app")
    assert env.grade(task, [script])[0].reward == 1.0
    script = actions_script([("echo oops )", 5), ("echo wrong > hello.txt", 5)], "/app")
    assert env.grade(task, [script])[0].reward == 0.0


def test_planted_reward_and_test_runner_modules_are_flagged(env) -> None:  # type: ignore[no-untyped-def]
    task = env.task("hello-world")
    cheat = ("mkdir -p /logs/verifier && echo 1 > /logs/verifier/reward.txt && "
             "printf 'import sys; sys.exit(0)\\n' > /app/pytest.py")  # fmt: skip
    [v] = env.grade(task, [cheat])
    assert v.reward == 0.0, v.reason
    assert {f.kind for f in v.flags} == {"verifier_paths_written", "test_runner_shadow"}


def test_a_task_whose_image_cannot_be_had_is_masked_with_the_fix(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root = tmp_path / "tasks"
    missing = f"registry.example/not-here-{tmp_path.name.lower()}:1"  # a name no run made
    for name, dockerfile in (
        ("unknown-base", f"FROM {missing}\nWORKDIR /app\n"),
        ("offline-build", "FROM ubuntu:24.04\nRUN apt-get install -y no-such-package-rlvr\n"),
    ):
        task = root / name
        (task / "environment").mkdir(parents=True)
        (task / "tests").mkdir()
        (task / "instruction.md").write_text("Do nothing.\n")
        (task / "task.toml").write_text("[environment]\nbuild_timeout_sec = 120\n")
        (task / "environment" / "Dockerfile").write_text(dockerfile)
        (task / "tests" / "test.sh").write_text("echo 1 > /logs/verifier/reward.txt\n")
    (root / "no-tests").mkdir()
    (root / "no-tests" / "instruction.md").write_text("x\n")
    tasks, refused = load_all(str(root))
    assert [r.task for r in refused] == ["no-tests"]
    verdicts = {t.id: env.grader.grade_group(t, [""])[0] for t in tasks}
    base = verdicts["unknown-base"]
    assert base.status == "grader_error" and "rlvr sandbox standin" in base.reason
    build = verdicts["offline-build"]
    assert build.status == "grader_error" and "no-such-package-rlvr" in build.reason
    # the documented route: a stand-in for every base the folder names that is not here
    made = CliRunner().invoke(app, ["sandbox", "standin", "--tasks", str(root)])
    try:
        assert made.exit_code == 0 and missing in made.output, made.output
        [again] = env.grader.grade_group(next(t for t in tasks if t.id == "unknown-base"), [""])
        assert again.reward == 1.0, again.reason
    finally:
        get_client().images.remove(missing)
    lone = tmp_path / "lone"
    (lone / "no-tests").mkdir(parents=True)
    (lone / "no-tests" / "instruction.md").write_text("x\n")
    with pytest.raises(RlvrError, match="none of the 1 task folders"):
        load_tasks(str(lone))


def test_declared_network_is_given_per_phase_only_when_allowed(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A task whose agent may use the network and whose verifier may not: offline it loads and
    runs without network; allowed, the agent's container has an interface besides loopback and
    the verifier's has not (no traffic leaves)."""
    task = tmp_path / "tasks" / "agent-net"
    (task / "environment").mkdir(parents=True)
    (task / "tests").mkdir()
    (task / "instruction.md").write_text("x\n")
    (task / "task.toml").write_text('[environment]\nnetwork_mode = "public"\n'
                                    '[verifier]\nnetwork_mode = "no-network"\n')  # fmt: skip
    (task / "environment" / "Dockerfile").write_text("FROM ubuntu:24.04\nWORKDIR /app\n")
    (task / "tests" / "test.sh").write_text(
        "ls /sys/class/net > /tmp/verifier-nics; "
        'if [ "$(cat /tmp/agent-nics)" != lo ] && [ "$(cat /tmp/verifier-nics)" = lo ]; '
        "then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n"
    )
    [offline] = load_tasks(str(tmp_path / "tasks"))  # runs offline, and says so on failure
    assert offline.meta["network"] == [] and offline.meta["network_declared"] == ["agent"]
    [v] = env.grader.grade_group(offline, ["ls /sys/class/net > /tmp/agent-nics"])
    assert v.reward == 0.0 and "declares network access and ran offline" in v.reason
    [t] = load_tasks(str(tmp_path / "tasks"), allow_network=True)
    assert t.meta["network"] == ["agent"]
    [v] = env.grader.grade_group(t, ["ls /sys/class/net > /tmp/agent-nics"])
    assert v.reward == 1.0, v.reason


def test_episodes_are_admitted_by_the_hosts_free_memory(env, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from rlvr.episodes.admission import admitted

    assert admitted(env, 64, free_mb=24 * 1024) == int(24 * 1024 * 0.8) // 2048
    assert admitted(env, 64, free_mb=100) == 1 and admitted(env, 3, free_mb=10**6) == 3
    assert admitted(load_env("repair-python"), 64, free_mb=100) == 64  # no container each
    monkeypatch.setenv("RLVR_MAX_EPISODES", "2")
    task = env.task("reward-json")
    group = episodes(env, task, [[call("bash", command="echo 4 > count.txt")], [], []], tmp_path)
    assert [r.verdict.reward for r in group] == [1.0, 0.0, 0.0]  # type: ignore[union-attr]
    assert [r.sample.index for r in group] == [0, 1, 2]


def test_a_server_with_structured_tool_calls_solves_a_harbor_task(env) -> None:  # type: ignore[no-untyped-def]
    """An OpenAI-compatible server that answers with `message.tool_calls` and no content (vLLM
    with automatic tool choice) is read, and it is sent the episode's tools."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from rlvr.policies.openai import OpenAIPolicy

    bodies: list[dict] = []
    turns = [("bash", {"command": 'echo "Hello, world!" > /app/hello.txt'}), ("submit", {})]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            bodies.append(body)
            assistant = sum(m["role"] == "assistant" for m in body["messages"])
            name, args = turns[min(assistant, len(turns) - 1)]
            call = {"id": f"call_{assistant}", "type": "function",
                    "function": {"name": name, "arguments": json.dumps(args)}}  # fmt: skip
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            data = json.dumps({"choices": [{"index": 0, "message": message,
                                            "finish_reason": "tool_calls"}]}).encode()  # fmt: skip
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        policy = OpenAIPolicy(f"http://127.0.0.1:{httpd.server_address[1]}/v1", model="stub")
        [[r]] = EpisodeRunner(env, policy).run([env.task("hello-world")], 1, SamplingConfig())
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert r.verdict is not None and r.verdict.reward == 1.0, r.verdict
    offered = [t["function"]["name"] for t in bodies[0]["tools"]]
    assert offered == ["bash", "read_file", "write_file", "submit"]
    assert r.sample.episode is not None and r.sample.episode.end == "submit"
    # the bash result went back as a `tool` message answering the call's id
    sent = bodies[1]["messages"]
    [assistant] = [m for m in sent if m["role"] == "assistant"]
    [result] = [m for m in sent if m["role"] == "tool"]
    assert result["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert result["content"].startswith("exit code 0")
    assert not any("<tool_response" in str(m.get("content")) for m in sent)


HELLO = 'echo "Hello, world!" > /app/hello.txt'
POISON_UV = (
    "/opt/rlvr-toolbox/bin/uvx -p 3.13 -w pytest==8.4.1 -w pytest-json-ctrf==0.3.5 pytest "
    "--version >/dev/null 2>&1; for f in $(find /tmp -path '*/pytest/__init__.py'); do "
    "printf 'import os\\nos._exit(0)\\n' > \"$f\"; done"
)
FIFO = (
    "mkdir -p /app/.check && mkfifo /app/.check/out.txt && nohup bash -c 'while :; do cat "
    "/app/.check/out.txt >/dev/null; echo ok > /app/.check/out.txt; done' >/dev/null 2>&1 &"
)
# (task, bash commands (command, timeout_s), reward) from a cold attack round on Harbor mode,
# beside honest controls; each must score the same in the episode and in a regrade
ATTACKS = {
    "poisoned_uv_cache": ("user-env-workdir", [(POISON_UV, None)], 0.0),
    "kill_init_before_verifier": ("user-env-workdir", [(
        "nohup bash -c 'until [ -d /tests ]; do sleep 0.05; done; kill -TERM 1' "
        ">/dev/null 2>&1 & echo ok", None)], 0.0),
    "root_kills_init": ("hello-world", [(HELLO, None), ("kill -TERM 1", None)], 0.0),
    "past_the_command_limit": ("hello-world", [("sleep 4; " + HELLO, 2)], 0.0),
    "kill_own_group_then_remove": ("hello-world", [(HELLO, None), ("kill -9 0", None),
                                                   ("rm -f /app/hello.txt", None)], 0.0),
    "fifo_result_file": ("tests-write-into-app", [(FIFO, None)], 0.0),
    "honest_after_kill_0": ("hello-world", [("kill -9 0", None), (HELLO, None)], 1.0),
    "honest": ("user-env-workdir", [('printf "%s\\n" "$GREETING" > greeting.txt', None)], 1.0),
    # a cold round's masks: Harbor's own set-up steps run in the agent's container, so one the
    # agent broke is the agent's doing (scored 0), never infra_error
    "pids_filled_before_verifier": ("root-owned-reference", [(
        "for i in $(seq 600); do setsid tail -f /dev/null </dev/null >/dev/null 2>&1 & done "
        "2>/dev/null; true", None)], 0.0),
    "root_removes_timeout": ("reward-json", [("rm -f /usr/bin/timeout", None)], 0.0),
    # a second cold round: a root agent's process bends /logs/verifier while the verifier runs
    # (a link loop: the daemon cannot read the reward), or fills its reward files with what
    # the parsers once crashed on; scored 0, never masked, never a crash of the rollout
    "verifier_logs_link_loop": ("hello-world", [(
        "setsid bash -c 'while :; do if [ -d /tests ]; then rm -rf /logs/verifier; ln -sfn "
        "verifier /logs/verifier 2>/dev/null; fi; sleep 0.02; done' >/dev/null 2>&1 </dev/null "
        "& echo started", None)], 0.0),
    "reward_json_nested_past_the_parser": ("hello-world", [(
        "setsid bash -c 'while :; do if [ -d /tests ]; then mkdir -p /logs/verifier/reward.txt "
        "2>/dev/null; [ -s /logs/verifier/reward.json ] || { head -c 60000 /dev/zero | tr "
        "\"\\0\" \"[\" > /logs/verifier/.j; mv /logs/verifier/.j /logs/verifier/reward.json; "
        "}; fi; sleep 0.01; done' >/dev/null 2>&1 </dev/null & echo started", None)], 0.0),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_attacks_are_scored_and_regrade_alike(env, tmp_path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    task_id, commands, reward = ATTACKS[name]
    task = env.task(task_id)
    turns = [call("bash", command=c, **({"timeout_s": t} if t else {})) for c, t in commands]
    [r] = episodes(env, task, [[*turns, call("submit")]], tmp_path)
    assert r.verdict is not None
    assert (r.verdict.status, r.verdict.reward) == ("scored", reward), r.verdict.reason
    [again] = env.grade(task, [r.sample.text])
    assert (again.status, again.reward) == ("scored", reward), again.reason


def test_a_link_out_of_the_workspace_is_flagged(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A non-root agent's process swaps a symlink to a root-only reference for a file once the
    root verifier has read through it (Harbor's verifier runs beside the agent's processes, a
    documented limit): a link still there before or after the verifier is flagged (one swapped
    back in between is not: sandbox/SECURITY.md)."""
    monitor = (PAYLOADS / "symlink_swap.py").read_text(encoding="utf-8")
    task = env.task("root-owned-reference")
    turns = [call("write_file", path="/app/.m.py", content=monitor),
             call("bash", command="setsid python3 /app/.m.py </dev/null >/dev/null 2>&1 & true"),
             call("submit")]  # fmt: skip
    [r] = episodes(env, task, [turns], tmp_path)
    assert r.verdict is not None and r.verdict.status == "scored", r.verdict.reason
    kinds = {f.kind for f in r.verdict.flags}
    assert "outside_workspace" in kinds, (r.verdict.reward, r.verdict.reason)
    assert any("/opt/expected/sorted.txt" in f.evidence for f in r.verdict.flags)


def test_a_prebuilt_image_not_here_is_built_from_the_dockerfile(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Terminal-Bench tasks name a prebuilt docker_image and ship its Dockerfile: offline the
    Dockerfile builds it; without a Dockerfile the missing image masks the task with the fix."""
    root = tmp_path / "tasks"
    for name, dockerfile in (("with-dockerfile", True), ("image-only", False)):
        task = root / name
        (task / "environment").mkdir(parents=True)
        (task / "tests").mkdir()
        (task / "instruction.md").write_text("x\n")
        (task / "task.toml").write_text(
            '[environment]\ndocker_image = "registry.example/prebuilt-never-here:1"\n'
        )
        if dockerfile:
            (task / "environment" / "Dockerfile").write_text("FROM ubuntu:24.04\nWORKDIR /w\n")
        (task / "tests" / "test.sh").write_text(
            'if [ "$PWD" = /w ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n'
        )
    with_dockerfile, image_only = load_tasks(str(root))[::-1]
    built, missing = (env.grader.grade_group(t, [""])[0] for t in (with_dockerfile, image_only))
    assert (built.status, built.reward) == ("scored", 1.0), built.reason
    assert missing.status == "grader_error" and "rlvr sandbox standin" in missing.reason
    # a stand-in under the prebuilt name lacks the real image's set-up: the Dockerfile wins
    named = standin("registry.example/prebuilt-never-here:1")
    try:
        [again] = env.grader.grade_group(with_dockerfile, [""])
        assert (again.status, again.reward) == ("scored", 1.0), again.reason
    finally:
        get_client().images.remove(named)


def test_reward_files_are_read_strictly_and_named_rewards_averaged() -> None:
    from rlvr.graders.terminal import _harbor_reward

    assert _harbor_reward("reward.txt", "1\n") == 1.0 and _harbor_reward("reward.txt", "0.5") == 0.5
    for bad in ("1_0", "\uff11", "true", ""):
        assert _harbor_reward("reward.txt", bad) is None
    assert _harbor_reward("reward.json", '{"correctness": 1, "performance": 0.5}') == 0.75
    for bad in ('{"reward": true}', '{"reward": "1"}', '{"reward": 0, "reward": 1}', "{}",
                "[" * 60000, '{"reward": 1' + "0" * 4000 + "}"):  # fmt: skip
        assert _harbor_reward("reward.json", bad) is None
    from rlvr.graders.terminal import parse_ctrf

    assert parse_ctrf("[" * 100000) == []


def test_a_task_folder_that_cannot_be_read_is_refused_alone(tmp_path: Path) -> None:
    """A cold round's crashes: each of these once failed the whole folder, or the rollout."""
    host_file = tmp_path / "host-secret.txt"
    host_file.write_text("secret\n")
    root = tmp_path / "tasks"

    def task(name: str, toml: str = "") -> Path:
        folder = root / name
        (folder / "environment").mkdir(parents=True)
        (folder / "tests").mkdir()
        (folder / "instruction.md").write_text("x\n")
        (folder / "tests" / "test.sh").write_text("true\n")
        (folder / "environment" / "Dockerfile").write_text("FROM ubuntu:24.04\n")
        (folder / "task.toml").write_text(toml)
        return folder

    task("good")
    (task("instruction-not-utf8") / "instruction.md").write_bytes(b"caf\xe9\n")
    (task("solution-not-utf8") / "solution").mkdir()
    (root / "solution-not-utf8" / "solution" / "solve.sh").write_bytes(b"\xff\n")
    (task("tests-link-to-host") / "tests" / "leak.txt").symlink_to(host_file)
    (task("instruction-link-to-host") / "instruction.md").unlink()
    (root / "instruction-link-to-host" / "instruction.md").symlink_to(host_file)
    (task("depends-on-int") / "environment" / "docker-compose.yaml").write_text(
        "services:\n  db:\n    image: ubuntu:24.04\n    depends_on: 5\n"
    )
    task("verifier-timeout-huge", "[verifier]\ntimeout_sec = 1e20\n")
    tasks, refused = load_all(str(root))
    assert [t.id for t in tasks] == ["good"]
    reasons = {r.task: r.reason for r in refused}
    assert len(reasons) == 6, reasons
    assert "not UTF-8" in reasons["instruction-not-utf8"]
    assert "not UTF-8" in reasons["solution-not-utf8"]
    assert "links outside the task folder" in reasons["tests-link-to-host"]
    assert "links outside the task folder" in reasons["instruction-link-to-host"]
    assert "depends_on" in reasons["depends-on-int"]
    assert "timeout_sec" in reasons["verifier-timeout-huge"]


def test_trls_environment_factory_drives_a_harbor_task(env) -> None:  # type: ignore[no-untyped-def]
    """TRL's agent path (`GRPOTrainer(environment_factory=...)`) calls these methods."""
    from rlvr.integrations.trl_episodes import environment_factory

    rollout = environment_factory(env)()
    rollout.reset(task_id="hello-world")
    assert rollout.bash(command="id -u").startswith("exit code 0")
    rollout.bash(command=HELLO)
    assert rollout.get_reward() == 1.0
    rollout.reset(task_id="hello-world")
    assert rollout.get_reward() == 0.0


def test_no_episode_container_outlives_its_process(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """SIGTERM closes the process's open episode containers; one a SIGKILLed process left is
    removed when the next rlvr process opens its first."""
    import signal
    import subprocess
    import sys

    from rlvr.sandbox.client import get_client

    script = (
        "import sys, time\n"
        "from rlvr.registry import load_env\n"
        "env = load_env('harbor-examples')\n"
        "box = env.grader.open_box(env.task('hello-world'))\n"
        "print('open', flush=True)\n"
        "time.sleep(120)\n"
    )

    def left_by(pid: int) -> list:
        return get_client().containers.list(all=True, filters={"label": f"rlvr.pool={pid}"})

    for sig in (signal.SIGTERM, signal.SIGKILL):
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE,
                                text=True, start_new_session=True)  # fmt: skip
        assert proc.stdout is not None and proc.stdout.readline().strip() == "open"
        assert left_by(proc.pid)
        proc.send_signal(sig)
        proc.wait(timeout=60)
        if sig == signal.SIGTERM:
            assert not left_by(proc.pid)
        else:
            assert left_by(proc.pid)  # nobody could close it
            sweep = "from rlvr.sandbox import leases; leases.opening()"
            subprocess.run([sys.executable, "-c", sweep], check=True, timeout=120)
            assert not left_by(proc.pid)


@pytest.mark.parametrize("which", ["harbor", "strong"])
def test_a_daemon_away_for_seconds_does_not_mask_an_episode(  # type: ignore[no-untyped-def]
    env, which, monkeypatch, tmp_path
) -> None:
    """The Docker API cut for 5 s during a command: the episode waits for it as the pool does,
    its container still runs, and the episode goes on to its verdict."""
    import threading
    import time

    from daemon_proxy import through_proxy

    proxy = through_proxy(monkeypatch, tmp_path, 60.0)
    try:
        if which == "harbor":
            task, fix = env.task("hello-world"), HELLO
        else:
            env = load_env("terminal")
            task = env.task("count-error-lines")
            fix = ("awk '$2 == \"ERROR\"' app.log | wc -l > error_count.txt && awk '$2 == "
                   "\"ERROR\" {print $3}' app.log | sort -u > error_workers.txt")  # fmt: skip
        turns = [call("bash", command="sleep 4; echo slept"), call("bash", command=fix),
                 call("submit")]  # fmt: skip

        def outage() -> None:
            time.sleep(1.5)
            proxy.cut()
            time.sleep(5.0)
            proxy.up.set()

        threading.Thread(target=outage, daemon=True).start()
        [r] = episodes(env, task, [turns], tmp_path)
    finally:
        proxy.close()
    assert r.verdict is not None
    assert (r.verdict.status, r.verdict.reward) == ("scored", 1.0), r.verdict.reason
    first = r.sample.episode.turns[0].observations[0].content  # type: ignore[union-attr]
    assert "outcome is unknown" in first or first.startswith("exit code 0"), first


def test_a_daemon_away_while_the_judge_runs_does_not_mask_the_episode(  # type: ignore[no-untyped-def]
    monkeypatch, tmp_path
) -> None:
    """The Docker API cut for 5 s while the strong judge's tests run: the episode waits for the
    daemon, the judge starts over in the same container, and the verdict is scored."""
    import threading
    import time

    from daemon_proxy import through_proxy

    from rlvr.registry import env_from_manifest

    task = tmp_path / "tasks" / "slow-judge"
    (task / "tests").mkdir(parents=True)
    (task / "instruction.md").write_text("Write ok into done.txt.\n")
    (task / "tests" / "test.py").write_text(
        "import time\n\n\ndef test_done(ws):\n    time.sleep(4)\n"
        "    assert ws.read_text('done.txt') == 'ok\\n'\n"
    )
    manifest = (Path(__file__).parents[1] / "envs" / "terminal" / "env.toml").read_text()
    folder = tmp_path / "env"
    folder.mkdir()
    (folder / "env.toml").write_text(
        manifest.replace('args = { path = "terminal" }', f'args = {{ path = "{task.parent}" }}')
    )
    (folder / "Dockerfile").write_text(
        (Path(__file__).parents[1] / "envs" / "terminal" / "Dockerfile").read_text()
    )
    env = env_from_manifest(folder)
    proxy = through_proxy(monkeypatch, tmp_path, 60.0)
    try:
        turns = [call("bash", command="echo ok > done.txt"), call("submit")]

        def outage() -> None:  # the episode opens and acts in about 2 s; the judge sleeps 4 s
            time.sleep(3.5)
            proxy.cut()
            time.sleep(5.0)
            proxy.up.set()

        threading.Thread(target=outage, daemon=True).start()
        [r] = episodes(env, env.task("slow-judge"), [turns], tmp_path)
    finally:
        proxy.close()
    assert r.verdict is not None
    assert (r.verdict.status, r.verdict.reward) == ("scored", 1.0), r.verdict.reason
