"""Episodes: tool calls read and schema-checked, the turn loop, token accounting and the loss
mask. The sandbox-backed repair environments are tested in test_episodes_repair.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from rlvr.env import Environment
from rlvr.episodes.run import EpisodeRunner, env_turn_ids, episode_ids
from rlvr.episodes.session import EpisodeSpec
from rlvr.episodes.tools import MAX_CALL_CHARS, MAX_CALLS_PER_TURN, read_calls, tools_prompt
from rlvr.policies.base import SamplingConfig, TokenPrompt
from rlvr.policies.replay import ReplayPolicy, episode_label, split_label
from rlvr.types import Observation, Sample, Task, ToolCall, Verdict

TOOLS = ["bash", "read_file", "write_file", "submit"]


# --- reading tool calls -------------------------------------------------------------------


def test_qwen_style_fenced_and_prose_calls_are_read() -> None:
    hermes = 'Let me look.\n<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>'
    fenced = '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```'
    prose = 'I will call {"name": "submit", "arguments": {}} now.'
    assert read_calls(hermes, TOOLS).calls == [ToolCall(name="bash", arguments={"command": "ls"})]
    assert read_calls(fenced, TOOLS).calls[0].arguments == {"path": "a.txt"}
    assert read_calls(prose, TOOLS).calls == [ToolCall(name="submit")]


def test_a_turn_without_a_call_has_no_calls_and_no_problem() -> None:
    got = read_calls("I think the answer is 42.", TOOLS)
    assert got.calls == [] and got.problem is None


def test_code_blocks_are_never_read_as_calls() -> None:
    code = '```python\nx = {"name": "bash", "arguments": {"command": "rm -rf /"}}\n```\n'
    assert read_calls(code, TOOLS).calls == []
    js = "```javascript\nfunction f(a) { return {a: 1}; }\n```"
    assert read_calls(js, TOOLS).calls == []
    # code still being written when the turn ended (no closing fence) is code, not a bad call
    unclosed = 'Here:\n```python\ndef f():\n    return {"name": "bash", "arguments": {'
    assert read_calls(unclosed, TOOLS).calls == [] and read_calls(unclosed, TOOLS).problem is None
    after = '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\n' + unclosed
    assert [c.name for c in read_calls(after, TOOLS).calls] == ["bash"]
    # an unclosed JSON fence still holds a call
    fenced = '```json\n{"name": "bash", "arguments": {"command": "ls"}}\n'
    assert [c.name for c in read_calls(fenced, TOOLS).calls] == ["bash"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ('<tool_call>{"name": "bash", "arguments": {"command": "ls"</tool_call>', "could not read"),
        ('<tool_call>{"name": "rm", "arguments": {}}</tool_call>', "there is no tool 'rm'"),
        ('<tool_call>{"name": "bash", "arguments": {}}</tool_call>', "'command' is a required"),
        ('<tool_call>{"name": "bash", "arguments": {"command": 3}}</tool_call>', "at command"),
        (
            '<tool_call>{"name": "read_file", "arguments": {"path": "a", "x": 1}}</tool_call>',
            "Additional properties",
        ),
    ],
)
def test_a_malformed_call_names_its_problem(text: str, needle: str) -> None:
    got = read_calls(text, TOOLS)
    assert got.calls == [] and got.problem is not None and needle in got.problem


def test_one_bad_call_makes_the_whole_turn_unusable() -> None:
    text = (
        '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\n'
        '<tool_call>{"name": "bash", "arguments": {}}</tool_call>'
    )
    got = read_calls(text, TOOLS)
    assert got.calls == [] and "required" in (got.problem or "")


def test_a_turn_of_too_many_or_too_long_calls_runs_none_of_them() -> None:
    """Thousands of calls, or megabytes of arguments, would hold the rollout for hours or fill
    its memory: the turn runs nothing and the model is told the limit."""
    call = '<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>\n'
    assert len(read_calls(call * MAX_CALLS_PER_TURN, TOOLS).calls) == MAX_CALLS_PER_TURN
    many = read_calls(call * 100, TOOLS)
    assert many.calls == [] and f"at most {MAX_CALLS_PER_TURN}" in (many.problem or "")
    huge = json.dumps({"name": "write_file", "arguments": {"path": "a", "content": "x" * 10**7}})
    long = read_calls(f"<tool_call>{huge}</tool_call>", TOOLS)
    assert long.calls == [] and f"at most {MAX_CALL_CHARS:,}" in (long.problem or "")


def test_the_prompt_names_the_tools_and_the_format() -> None:
    text = tools_prompt(["bash", "submit"])
    assert '"name": "bash"' in text and "<tool_call>" in text and "read_file" not in text
    with pytest.raises(ValueError, match="unknown tool"):
        tools_prompt(["teleport"])
    own = tools_prompt(["bash", "submit"], {"submit": "Finish: the tests check the workspace."})
    assert "the tests check the workspace" in own and "hidden tests" not in own


def test_the_terminal_submit_tool_says_what_is_judged() -> None:
    from rlvr.registry import load_env

    for name in ("terminal", "harbor-examples"):
        spec = load_env(name).episode
        assert spec is not None
        [submit] = [t for t in spec.schemas() if t["name"] == "submit"]
        assert "workspace" in submit["description"] and "hidden tests" not in spec.system_note()
    repair = load_env("repair-python").episode
    assert repair is not None and "hidden tests" in repair.system_note()
    # TRL's agent path reads the same wording from the tool method's docstring
    from transformers.utils import get_json_schema

    from rlvr.integrations.trl_episodes import environment_factory

    schema = get_json_schema(environment_factory(load_env("terminal")).submit)["function"]
    assert "workspace" in schema["description"] and "code" in schema["parameters"]["properties"]


# --- core types ---------------------------------------------------------------------------


def test_token_mask_must_match_token_ids() -> None:
    with pytest.raises(ValueError, match="token_mask has 2 entries but token_ids has 3"):
        Sample(task_id="t", index=0, text="", token_ids=[1, 2, 3], token_mask=[1, 0])


def test_episode_labels_round_trip() -> None:
    assert split_label(episode_label("HumanEval/3", 5)) == ("HumanEval/3", 5)
    assert split_label("plain-id") == ("plain-id", None)


# --- an in-process environment for the loop ------------------------------------------------


class NotesSession:
    """A tiny session kept in memory: write_file/read_file on a dict, submit ends it. The
    final judge passes when the file `answer.txt` holds "42"."""

    def __init__(self, env: Environment, task: Task) -> None:
        self.files: dict[str, str] = {}

    def note_turn(self, text: str) -> None:
        return None

    def call(self, call: ToolCall) -> Observation:
        if call.name == "write_file":
            self.files[call.arguments["path"]] = call.arguments["content"]
            return Observation(tool="write_file", content="written")
        if call.name == "read_file":
            path = call.arguments["path"]
            if path not in self.files:
                return Observation(tool="read_file", content=f"no file {path}", error=True)
            return Observation(tool="read_file", content=self.files[path])
        return Observation(tool=call.name, content="ok")

    def answer(self) -> str:
        return self.files.get("answer.txt", "")

    def verdict(self) -> Verdict | None:
        ok = self.files.get("answer.txt", "").strip() == "42"
        return Verdict.score(1.0, "42") if ok else Verdict.reject("not 42")

    def close(self) -> None:
        return None


class NoGrader:
    name = "none"

    def grade_group(self, task: Task, answers: list[str]) -> list[Verdict]:
        raise AssertionError("the session judged these episodes itself")


def notes_env(max_turns: int = 4, on_no_call: str = "end") -> Environment:
    tasks = [Task(id=f"n{i}", prompt=f"Write 42 into answer.txt ({i}).") for i in range(2)]
    spec = EpisodeSpec(
        max_turns=max_turns,
        tools=["read_file", "write_file", "submit"],
        open_session=NotesSession,
        on_no_call=on_no_call,  # type: ignore[arg-type]
    )
    return Environment(name="notes", grader=NoGrader(), load_tasks=lambda: tasks, episode=spec)


def call(name: str, **args: object) -> str:
    return "<tool_call>" + json.dumps({"name": name, "arguments": args}) + "</tool_call>"


def script(path: Path, lines: list[tuple[str, list[str]]]) -> ReplayPolicy:
    path.write_text("".join(json.dumps({"task_id": t, "turns": s}) + "\n" for t, s in lines))
    return ReplayPolicy(path)


def test_scripted_episodes_end_by_submit_budget_no_call_and_cost_a_turn_per_bad_call(
    tmp_path: Path,
) -> None:
    env = notes_env(max_turns=3)
    good = [call("write_file", path="answer.txt", content="42"), call("submit")]
    bad = [
        '<tool_call>{"name": "write_file"}</tool_call>',
        call("read_file", path="x"),
        call("write_file", path="answer.txt", content="41"),
    ]
    lazy = ["I am done."]
    policy = script(tmp_path / "s.jsonl", [("n0", good), ("n0", bad), ("n0", lazy)])
    [group] = EpisodeRunner(env, policy).run(env.tasks()[:1], 3, SamplingConfig())
    ends = [r.sample.episode.end for r in group]  # type: ignore[union-attr]
    assert ends == ["submit", "budget", "no_call"]
    assert [r.verdict.reward for r in group] == [1.0, 0.0, 0.0]  # type: ignore[union-attr]
    broken = group[1].sample.episode
    assert broken is not None and len(broken.turns) == 3 and broken.tool_errors == 2
    assert "bad arguments for 'write_file'" in broken.turns[0].observations[0].content
    assert group[0].sample.text == "42"


def test_rollout_scores_episodes_judged_in_the_session(tmp_path: Path) -> None:
    from rlvr.rollout import RolloutConfig, score_tasks

    env = notes_env()
    good = [call("write_file", path="answer.txt", content="42"), call("submit")]
    policy = script(tmp_path / "s.jsonl", [("n0", good), ("n0", ["no"]), ("n1", ["no"])] * 1)
    groups = score_tasks(env, policy, env.tasks()[:1], RolloutConfig(g=2))
    assert groups[0].rewards == [1.0, 0.0] and groups[0].advantages is not None
    assert groups[0].samples[0].episode is not None


# --- token accounting with a local model ---------------------------------------------------


@pytest.fixture(scope="module")
def tiny_policy():  # type: ignore[no-untyped-def]
    from rlvr.models import make_policy

    return make_policy("tiny", batch_size=8)


def test_token_prompts_are_read_as_given(tiny_policy) -> None:  # type: ignore[no-untyped-def]
    ids = tiny_policy.tokenizer("hello world", add_special_tokens=False)["input_ids"]
    [[s]] = tiny_policy.sample([TokenPrompt(ids=ids)], 1, SamplingConfig(max_new_tokens=3))
    assert s.prompt_token_ids == ids


def test_env_turn_ids_are_what_the_template_adds(tiny_policy) -> None:  # type: ignore[no-untyped-def]
    tok = tiny_policy.tokenizer
    before = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "call"}]
    after = [*before, {"role": "user", "content": "<tool_response>ok</tool_response>"}]
    ids = env_turn_ids(tok, before, after)
    assert "<tool_response>ok</tool_response>" in tok.decode(ids)


def live_episodes(tiny_policy, turns: int = 3):  # type: ignore[no-untyped-def]
    env = notes_env(max_turns=turns, on_no_call="remind")
    sampling = SamplingConfig(temperature=1.0, max_new_tokens=8, seed=3)
    return env, EpisodeRunner(env, tiny_policy).run(env.tasks(), 2, sampling)


def test_a_local_model_samples_each_turn_from_the_exact_episode_context(tiny_policy) -> None:  # type: ignore[no-untyped-def]
    """The model's logprobs at sampling time equal the learner's over the stored ids: the
    context each turn was sampled from is exactly the sequence a learner trains on."""
    from rlvr.learners.batch import from_samples, score

    _, groups = live_episodes(tiny_policy)
    samples = [r.sample for g in groups for r in g]
    for s in samples:
        assert s.token_ids is not None and s.token_mask is not None and s.logprobs is not None
        assert len(s.token_ids) == len(s.token_mask) == len(s.logprobs)
        ep = s.episode
        assert ep is not None and len(ep.turns) == 3 and ep.end == "budget"
        assert sum(s.token_mask) == sum(t.model_tokens or 0 for t in ep.turns)
        assert len(s.token_mask) - sum(s.token_mask) == sum(t.env_tokens or 0 for t in ep.turns)
        assert 0 < sum(s.token_mask) < len(s.token_mask)
    batch = from_samples(samples, [1.0] * len(samples), tiny_policy.tokenizer.pad_token_id)
    model = tiny_policy.model
    again = score(model, batch, 1.0, 8)
    mask = batch.completion_mask
    assert torch.allclose(again[mask], batch.old_logp[mask], atol=2e-4)


def test_environment_tokens_get_no_gradient(tiny_policy) -> None:  # type: ignore[no-untyped-def]
    """The gradient of the policy loss reaches the hidden state that predicts each model
    token and is exactly zero at every position that predicts an environment token."""
    from rlvr.learners.batch import forward, from_samples
    from rlvr.learners.losses import aggregate, clipped_surrogate

    _, groups = live_episodes(tiny_policy)
    samples = [r.sample for g in groups for r in g]
    batch = from_samples(samples, [1.0, -1.0] * (len(samples) // 2), 0)
    model = tiny_policy.model
    captured = {}

    def keep(_module, _inputs, output):  # type: ignore[no-untyped-def]
        output.retain_grad()
        captured["h"] = output

    norm = model.model.norm
    handle = norm.register_forward_hook(keep)
    try:
        model.train()
        out = forward(model, batch, 1.0, entropy="none")
        loss = aggregate(
            clipped_surrogate(
                out.logp, batch.old_logp, batch.advantages, batch.completion_mask, 0.2, 0.2
            ),
            batch.completion_mask,
            "token_mean",
        )
        loss.backward()
    finally:
        handle.remove()
        model.zero_grad(set_to_none=True)
        model.eval()
    t = batch.completion_mask.shape[1]
    grad = captured["h"].grad[:, -(t + 1) : -1].norm(dim=-1)  # state j predicts token j
    env_tok = ~batch.completion_mask & (batch.attention_mask[:, -t:] == 1)
    assert env_tok.any() and batch.completion_mask.any()
    assert torch.all(grad[env_tok] == 0)
    assert torch.all(grad[batch.completion_mask] > 0)


def test_a_stored_episode_is_tokenised_with_its_environment_tokens_masked(
    tiny_policy,  # type: ignore[no-untyped-def]
) -> None:
    env, groups = live_episodes(tiny_policy)
    s = groups[0][0].sample
    assert s.episode is not None
    prompt, ids, mask = episode_ids(tiny_policy.tokenizer, env.messages(env.tasks()[0]), s.episode)
    assert prompt == s.prompt_token_ids
    assert len(ids) == len(mask) and 0 < sum(mask) < len(mask)
    assert len(mask) - sum(mask) == len(s.token_mask or []) - sum(s.token_mask or [])


def test_rollout_puts_episode_flags_on_the_verdicts(tmp_path: Path) -> None:
    from rlvr.rollout import RolloutConfig, score_tasks

    env = notes_env()
    sneaky = [
        call("write_file", path="/etc/answer.txt", content="42"),
        call("write_file", path="answer.txt", content="42"),
        call("submit"),
    ]
    policy = script(tmp_path / "s.jsonl", [("n0", sneaky)])
    [group] = score_tasks(env, policy, env.tasks()[:1], RolloutConfig(g=1))
    verdict = group.verdicts[0]
    assert verdict.reward == 1.0  # the default policy only reports
    assert [f.kind for f in verdict.flags] == ["outside_workspace"]


def test_a_served_model_gets_each_turn_as_chat_messages_with_the_tool_results() -> None:
    from test_policies import _Server

    from rlvr.policies.openai import OpenAIPolicy

    turns = [
        call("write_file", path="answer.txt", content="42"),
        call("read_file", path="answer.txt"),
        call("submit"),
    ]

    def respond(body: dict) -> tuple[int, dict]:
        k = sum(m["role"] == "assistant" for m in body["messages"])
        message = {"role": "assistant", "content": turns[k]}
        choice = {"index": 0, "message": message, "finish_reason": "stop"}
        return 200, {"object": "chat.completion", "model": "m", "choices": [choice]}

    server = _Server(respond)
    try:
        env = notes_env()
        policy = OpenAIPolicy(server.url, model="m")
        [[result]] = EpisodeRunner(env, policy).run(env.tasks()[:1], 1, SamplingConfig())
    finally:
        server.close()
    assert result.verdict is not None and result.verdict.reward == 1.0
    posts = [r for r in server.requests if r.get("path") == "/v1/chat/completions"]
    assert len(posts) == 3
    last = posts[2]["messages"]
    assert [m["role"] for m in last] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert last[-1]["content"] == '<tool_response name="read_file">\n42\n</tool_response>'


def test_a_served_episode_that_outgrows_the_context_ends_there_and_is_judged() -> None:
    """A server's 400 for a prompt past the model's context ends that episode ("context"), as
    a local model's full context does, instead of ending the whole rollout."""
    from test_policies import _Server

    from rlvr.errors import PolicyError
    from rlvr.policies.openai import OpenAIPolicy

    full = {"error": {"message": "This model's maximum context length is 2048 tokens."}}

    refuse_all = []

    def respond(body: dict) -> tuple[int, dict]:
        if refuse_all or any(m["role"] == "assistant" for m in body["messages"]):
            return 400, full
        message = {"role": "assistant", "content": call("write_file", path="answer.txt",
                                                         content="42")}  # fmt: skip
        return 200, {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}

    server = _Server(respond)
    try:
        env = notes_env()
        policy = OpenAIPolicy(server.url, model="m")
        [[result]] = EpisodeRunner(env, policy).run(env.tasks()[:1], 1, SamplingConfig())
        refuse_all.append(True)  # a single prompt too long is the run's to fix: an error
        with pytest.raises(PolicyError, match="fills the model's context"):
            policy.sample(["hi"], 1, SamplingConfig())
        # so is an episode refused before its first turn (max_new_tokens past the context):
        # never a run of zero-turn episodes stored as failures
        with pytest.raises(PolicyError, match="refused the first turn"):
            EpisodeRunner(env, policy).run(env.tasks()[:1], 1, SamplingConfig())
    finally:
        server.close()
    ep = result.sample.episode
    assert ep is not None and ep.end == "context" and len(ep.turns) == 1
    assert result.verdict is not None and result.verdict.reward == 1.0


def test_episodes_waiting_for_a_wave_are_counted_for_the_progress_bar(monkeypatch) -> None:
    """Waves of one (RLVR_MAX_EPISODES=1): while each wave samples, the others wait, and the
    count the rollout bar shows ("queued N") says how many; none is left once the run ends."""
    from rlvr.cli.sampling import QueueColumn
    from rlvr.episodes.admission import queued
    from rlvr.registry import load_env

    seen: list[int] = []
    shown: list[str] = []

    class GivesUp:
        def sample(self, prompts, g, sampling, task_ids=None):  # type: ignore[no-untyped-def]
            seen.append(queued())
            shown.append(str(QueueColumn().render(None)))
            return [[Sample(task_id=t, index=0, text="I give up.")] for t in task_ids or []]

    monkeypatch.setenv("RLVR_MAX_EPISODES", "1")
    env = load_env("repair-python")
    [group] = EpisodeRunner(env, GivesUp()).run([env.tasks()[0]], 3, SamplingConfig())  # type: ignore[arg-type]
    assert [r.sample.episode.end for r in group] == ["no_call"] * 3  # type: ignore[union-attr]
    assert seen == [2, 1, 0] and shown == ["queued 2", "queued 1", ""]
    assert queued() == 0
