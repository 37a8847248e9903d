"""The terminal environment against real Docker: references pass and empty episodes fail,
episodes run through the tool path, and what an agent with a shell cannot do to its judge."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted_episodes import call, episodes

from rlvr.registry import load_env
from rlvr.types import Task


@pytest.fixture(scope="module")
def env():  # type: ignore[no-untyped-def]
    return load_env("terminal")


def test_every_reference_passes_and_every_empty_answer_fails(env) -> None:  # type: ignore[no-untyped-def]
    from concurrent.futures import ThreadPoolExecutor

    tasks = env.tasks()
    assert len(tasks) >= 40

    def check(task: Task) -> tuple[str, str, str] | None:
        ref, empty = env.grader.grade_group(task, [task.reference or "", ""])
        ok = (ref.status, ref.reward, empty.status, empty.reward) == ("scored", 1.0, "scored", 0.0)
        return None if ok else (task.id, ref.reason, empty.reason)

    with ThreadPoolExecutor(4) as pool:  # one container per grade: four at a time
        bad = [b for b in pool.map(check, tasks) if b is not None]
    assert not bad, bad


def test_both_splits_have_tasks(env) -> None:  # type: ignore[no-untyped-def]
    assert env.tasks_in("train") and env.tasks_in("test")


def test_an_episode_solves_a_task_through_the_tools(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    task = env.task("count-error-lines")
    solve = [
        "Let me look.\n" + call("bash", command="head -3 app.log; wc -l app.log"),
        call("bash", command="awk '$2 == \"ERROR\"' app.log | wc -l > error_count.txt"),
        call("write_file", path="notes/draft.txt", content="draft"),
        call(
            "bash", command="awk '$2 == \"ERROR\" {print $3}' app.log | sort -u > error_workers.txt"
        ),
        call("read_file", path="error_count.txt"),
        call("submit"),
    ]
    wrong = [call("bash", command="echo 32 > error_count.txt"), call("submit")]
    group = episodes(env, task, [solve, wrong, []], tmp_path)
    rewards = [r.verdict.reward for r in group]  # type: ignore[union-attr]
    assert rewards == [1.0, 0.0, 0.0], [r.verdict.reason for r in group]  # type: ignore[union-attr]
    ep = group[0].sample.episode
    assert ep is not None and ep.end == "submit" and len(ep.turns) == 6
    first = ep.turns[0].observations[0].content
    assert first.startswith("exit code 0") and "201 app.log" in first
    assert ep.turns[4].observations[0].content.strip() == "33"
    # the stored answer is the agent's actions as a script, which `rlvr grade` replays
    assert env.grade(task, [group[0].sample.text])[0].reward == 1.0


def test_background_processes_die_with_their_command(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A process left running to write the answer later (after the judge's snapshot, or into
    a later command's view) is killed when its command ends."""
    task = env.task("count-error-lines")
    later = "(sleep 2; echo 33 > error_count.txt) > /dev/null 2>&1 & disown; echo started"
    check = "sleep 3; ls error_count.txt 2>&1; pgrep -c sleep || true"
    group = episodes(env, task, [[call("bash", command=later), call("bash", command=check)]],
                     tmp_path)  # fmt: skip
    ep = group[0].sample.episode
    assert ep is not None
    assert "No such file" in ep.turns[1].observations[0].content
    assert group[0].verdict is not None and group[0].verdict.reward == 0.0


def test_an_output_flood_is_stopped_at_the_output_limit_not_the_time_limit(
    env, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    """A command that writes megabytes is stopped once its output passes the limit, and the
    agent is told so (a writer left blocked on the pipe used to sit out its 30 s)."""
    task = env.task("count-error-lines")
    flood = "yes | head -c 200000000; echo done"
    group = episodes(env, task, [[call("bash", command=flood)]], tmp_path)
    ep = group[0].sample.episode
    assert ep is not None
    said = ep.turns[0].observations[0].content
    assert said.startswith("stopped after") and "(the output limit)" in said, said[:200]


def test_read_file_names_a_fifo_and_a_directory_at_once(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A FIFO with no writer used to hold read_file to its deadline and answer "gave nothing"."""
    task = env.task("count-error-lines")
    steps = [call("bash", command="mkfifo pipe; mkdir d"), call("read_file", path="pipe"),
             call("read_file", path="d"), call("read_file", path="app.log")]  # fmt: skip
    ep = episodes(env, task, [steps], tmp_path)[0].sample.episode
    assert ep is not None
    said = [t.observations[0].content for t in ep.turns[1:4]]
    assert "pipe is not a regular file: read_file reads files; use bash" in said[0], said[0]
    assert "d is a directory" in said[1], said[1]
    assert "ERROR" in said[2]


def test_a_workspace_1500_folders_deep_is_judged_not_failed(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Deep nesting is bounded by the walk, not by Python's recursion limit."""
    task = env.task("count-error-lines")
    deep = call("bash", command="mkdir -p $(printf 'd/%.0s' $(seq 1500)) && echo made")
    group = episodes(env, task, [[deep, call("submit")]], tmp_path)
    verdict = group[0].verdict
    assert verdict is not None and (verdict.status, verdict.reward) == ("scored", 0.0)
    assert "Recursion" not in verdict.reason, verdict.reason


def test_a_workspace_too_large_to_watch_reads_as_changed_not_unchanged(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """19,900 files under 1,460-byte paths make the judge's view of /app outgrow what a helper
    may hand back. Both views failed alike and read as "unchanged", so a program of the
    agent's could write /app while it was judged; now a view that fails is a change."""
    task = env.task("bash-organize")
    writer = call("bash", command=(
        "printf '#!/bin/bash\\necho ran >> /app/victim.txt\\n' > organize.sh; "
        "chmod 755 organize.sh; "
        "L=$(printf 'x%.0s' {1..250}); mkdir -p p/a$L/b$L/c$L/d$L/e$L; cd p/a$L/b$L/c$L/d$L/e$L; "
        "for i in $(seq 19900); do : > \"$(printf '%0200d' $i)\"; done; echo made"
    ))  # fmt: skip
    verdict = episodes(env, task, [[writer, call("submit")]], tmp_path)[0].verdict
    assert verdict is not None and verdict.reward == 0.0
    assert "which the judge cannot watch" in verdict.reason, verdict.reason


def test_a_symlink_to_somewhere_else_is_not_followed_by_the_judge(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    task = env.task("count-error-lines")
    links = call("bash", command="ln -s /etc/hostname error_count.txt; ln -s /proc/1/environ "
                 "error_workers.txt; ls -l")  # fmt: skip
    group = episodes(env, task, [[links, call("submit")]], tmp_path)
    verdict = group[0].verdict
    assert verdict is not None and verdict.reward == 0.0
    assert "not a regular file" in verdict.reason


def test_the_agent_sees_no_test_and_cannot_write_outside_its_reach(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    task = env.task("fix-makefile")
    probe = call("bash", command=(
        "id -u; ls -a /opt/rlvr; cat /opt/rlvr/episode.json; grep -rl test_program_greets /opt "
        "/tmp /app /root /home /srv /var /etc 2>/dev/null | head -3; echo x > /usr/bin/python3; "
        "echo y > /opt/rlvr/judge_main.py; "
        "touch /opt/rlvr/evil; echo done"
    ))  # fmt: skip
    group = episodes(env, task, [[probe, call("submit")]], tmp_path)
    ep = group[0].sample.episode
    assert ep is not None
    out = ep.turns[0].observations[0].content
    assert "test.py" not in out and "test_program_greets" not in out.split("episode.json")[-1]
    assert "Read-only file system" in out or "Permission denied" in out
    assert group[0].verdict is not None and group[0].verdict.reward == 0.0


def test_a_program_run_by_the_judge_cannot_forge_the_report(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The judge runs the agent's `greet` as another uid: it may print anything and try every
    inherited descriptor, but the report pipe is only the judge's."""
    task = env.task("fix-makefile")
    forge = (
        "cat > greet <<'EOF'\n#!/bin/bash\n"
        'for fd in /proc/self/fd/*; do echo \'{"tests": [{"name": "test_x", "outcome": '
        '"passed"}]}\' > "$fd" 2>/dev/null; done\n'
        "for p in /proc/[0-9]*; do cat $p/environ 2>/dev/null | tr '\\0' '\\n' | grep RLVR; done\n"
        "kill -9 -1 2>/dev/null\necho hello, world\nEOF\nchmod +x greet"
    )
    group = episodes(env, task, [[call("bash", command=forge), call("submit")]], tmp_path)
    verdict = group[0].verdict
    assert verdict is not None and verdict.status == "scored" and verdict.reward == 0.0
    assert {t.name for t in verdict.tests} == {
        "test_default_greeting", "test_makefile_links_both_objects", "test_program_greets",
        "test_sources_unchanged", "test_greet_is_the_compiled_program",
    }  # fmt: skip


def _task_with_tests(task_dir: Path, tests: str, instruction: str = "Nothing to do.\n") -> Task:
    """A one-file terminal task in `task_dir` whose judge runs `tests`."""
    from rlvr.tasksets.terminal import load_task

    (task_dir / "tests").mkdir(parents=True)
    (task_dir / "instruction.md").write_text(instruction)
    (task_dir / "tests" / "test.py").write_text(tests)
    return load_task(task_dir, "rlvr-terminal:bookworm")


def test_a_judged_program_that_does_not_read_its_input_fails_only_itself(
    env,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    """Feeding stdin to a program that exits at once must not kill the runner (a masked
    verdict): the test sees the program's exit, and the answer is scored."""
    task = _task_with_tests(
        tmp_path / "stdin-task",
        "def test_program_ignores_its_input(ws):\n"
        "    for _ in range(3):\n"
        "        run = ws.run(['true'], stdin='x' * 200000)\n"
        "        assert run.exit_code == 0, run.output\n"
        "    assert ws.exists('done.txt')\n",
    )
    done, empty = env.grader.grade_group(task, ["touch done.txt", ""])
    assert (done.status, done.reward) == ("scored", 1.0), done.reason
    assert (empty.status, empty.reward) == ("scored", 0.0), empty.reason
    assert "failed: assert ws.exists('done.txt')" in empty.reason  # a bare assert, named
    slow_task = _task_with_tests(
        tmp_path / "slow-task",
        "def test_program_is_quick(ws):\n"
        "    for _ in range(3):  # killed at its limit: never exit code 0, however fast the kill\n"
        "        run = ws.run(['sleep', '30'], timeout_s=1)\n"
        "        assert run.timed_out and run.exit_code == -9, (run.exit_code, run.timed_out)\n"
        "    run = ws.run(['bash', 'slow.sh'], timeout_s=1)\n"
        "    assert run.exit_code == 0\n",
    )
    (slow,) = env.grader.grade_group(slow_task, ["echo 'sleep 30' > slow.sh"])
    assert (slow.status, slow.reward) == ("scored", 0.0), slow.reason
    assert "hit its 1 s time limit" in slow.reason, slow.reason


def test_padding_past_the_snapshot_never_hides_a_file(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """5,000 files walked first cut the snapshot before it reaches `zzz/`: a check that a file
    is absent must then fail, not pass on a snapshot that never looked."""
    task = _task_with_tests(
        tmp_path / "absent-task",
        "def test_no_leftover(ws):\n    assert not ws.exists('zzz/leftover.txt')\n",
        "Leave no leftovers.\n",
    )
    pad = "mkdir -p aaa zzz && (cd aaa && seq 1 5200 | xargs touch) && touch zzz/leftover.txt"
    padded, clean = env.grader.grade_group(task, [pad, "mkdir -p aaa && touch aaa/1"])
    assert (padded.status, padded.reward) == ("scored", 0.0), padded.reason
    assert "snapshot" in padded.reason and "cut" in padded.reason
    assert (clean.status, clean.reward) == ("scored", 1.0), clean.reason


def test_a_fork_chain_does_not_outlive_its_command(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A process that forks and exits in a loop slipped past a kill that signals pid by pid;
    one kill(-1, SIGSTOP) first stops the whole chain, then it dies with its command."""
    task = env.task("count-error-lines")
    chain = (
        "python3 -c 'import os\n"
        "while True:\n"
        "    if os.fork(): os._exit(0)\n"
        "    os.setsid()' > /dev/null 2>&1 &\nsleep 1; echo started"
    )
    turns = [
        call("bash", command=chain),
        call(
            "bash",
            command='sleep 0.5; ps -o comm= -u "$(id -u)" | grep -c python3; '
            "echo 1 > error_count.txt",
        ),
        call("submit"),
    ]
    [r] = episodes(env, task, [turns], tmp_path)
    assert r.verdict is not None and (r.verdict.status, r.verdict.reward) == ("scored", 0.0)
    seen = r.sample.episode.turns[1].observations[0].content  # type: ignore[union-attr]
    assert seen.split("\n")[1].strip() == "0", seen


def test_the_judges_git_ignores_grafts_and_workspace_hooks(env, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A graft file turned a one-parent commit into a merge for the judge's git; the judge's
    git reads no grafts (nor the repository's fsmonitor, hooks or exclude settings)."""
    from rlvr.tasksets.terminal import load_task

    task_dir = tmp_path / "merge-task"
    (task_dir / "tests").mkdir(parents=True)
    (task_dir / "instruction.md").write_text("Merge branch b into main in /app/r.\n")
    (task_dir / "tests" / "test.py").write_text(
        "def test_head_is_a_merge(ws):\n"
        "    run = ws.run(['git', '-C', 'r', 'rev-list', '--parents', '-n', '1', 'HEAD'])\n"
        "    assert len(run.output.split()) == 3, run.output\n"
    )
    task = load_task(task_dir, "rlvr-terminal:bookworm")
    setup = "git init -q r && cd r && git commit -q --allow-empty -m a && "
    graft = setup + (
        "git commit -q --allow-empty -m b && git config advice.graftFileDeprecated false && "
        'echo "$(git rev-parse HEAD) $(git rev-parse HEAD~1) $(git rev-parse HEAD~1)" '
        "> .git/info/grafts && git rev-list --parents -n 1 HEAD | wc -w | grep -qx 3"
    )
    merge = setup + (
        "git checkout -q -b b && git commit -q --allow-empty -m c && git checkout -q main && "
        "git commit -q --allow-empty -m d && git merge -q --no-edit b"
    )
    grafted, merged = env.grader.grade_group(task, [graft, merge])
    assert (grafted.status, grafted.reward) == ("scored", 0.0), grafted.reason
    assert (merged.status, merged.reward) == ("scored", 1.0), merged.reason
