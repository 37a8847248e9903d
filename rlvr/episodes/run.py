"""The turn loop: G episodes per task, every live episode's next turn sampled in one call.

Each round asks the policy for the next turn of every episode still running (one batch), then
runs the turns' tool calls on a thread pool (tools mostly wait on a sandbox). An episode ends
when the model writes a turn with no tool call (unless the environment reminds it instead),
calls the submit tool, fills the model's context, or uses its last turn. A turn cut by the
token limit still counts; its calls are read as written.

Token accounting, for a policy that reads token prompts (a local model): the episode's context
is kept as token ids, the model's own sampled ids followed by the ids of the environment's
answer as the chat template renders it. The next turn is sampled from exactly those ids, and a
learner later scores exactly those ids, with the environment's tokens masked out of the loss.
Other policies (a server, a replay file) get the same context as chat messages.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rlvr.episodes.admission import admitted, note_waiting
from rlvr.episodes.session import Session
from rlvr.episodes.tools import read_calls
from rlvr.errors import PolicyError
from rlvr.policies.base import Message, Policy, SamplingConfig, TokenPrompt
from rlvr.policies.replay import episode_label
from rlvr.policies.tool_messages import tool_response
from rlvr.policies.tool_template import adopt_tool_template
from rlvr.types import Episode, EpisodeEnd, Observation, Sample, Task, Turn, Verdict

if TYPE_CHECKING:
    from rlvr.env import Environment

TOOL_WORKERS = 8
NO_CALL = "your turn had no tool call; call a tool, or submit to finish"


@dataclass
class EpisodeResult:
    """A finished episode: its sample (answer, tokens, turns) and a post-episode verdict if the
    session judged it itself (else the environment's grader grades `sample.text`)."""

    sample: Sample
    verdict: Verdict | None = None


def render(tokenizer: Any, messages: list[Message], generation: bool) -> str:
    """The context as text: the chat template, or plain paragraphs for a model without one."""
    if getattr(tokenizer, "chat_template", None):
        return str(
            tokenizer.apply_chat_template(
                messages, tokenize=False, add_generation_prompt=generation
            )
        )
    return "\n\n".join(m["content"] for m in messages) + ("\n" if generation else "")


def env_turn_ids(tokenizer: Any, before: list[Message], after: list[Message]) -> list[int]:
    """Ids of what the template adds between the model's turn and its next turn.

    The text delta between the context rendered through the model's turn and rendered with the
    observations and the next generation prompt; a template that rewrites earlier turns (so
    one rendering is not a prefix of the other) falls back to the observations as plain text.
    """
    old, new = render(tokenizer, before, False), render(tokenizer, after, True)
    eos = getattr(tokenizer, "eos_token", None)
    if eos and eos in old:  # what follows the model's own end of turn is the environment's
        old = old[: old.rindex(eos) + len(eos)]
    if new.startswith(old):
        delta = new[len(old) :]
    else:
        delta = "\n" + "\n".join(m["content"] for m in after[len(before) :]) + "\n"
    return list(tokenizer(delta, add_special_tokens=False)["input_ids"])


def episode_ids(
    tokenizer: Any, messages: list[Message], episode: Episode
) -> tuple[list[int], list[int], list[int]]:
    """(prompt ids, episode ids, mask) of a stored episode, tokenised as the loop would have:
    for an episode sampled elsewhere (a server, a replay file) that a local model trains on."""
    from rlvr.policies.hf import encode_prompt  # heavy: torch, transformers

    tool_role = adopt_tool_template(tokenizer)

    prompt = encode_prompt(tokenizer, messages)
    ids: list[int] = []
    mask: list[int] = []
    context = list(messages)
    eos = getattr(tokenizer, "eos_token_id", None)
    for k, turn in enumerate(episode.turns):
        model = list(tokenizer(turn.text, add_special_tokens=False)["input_ids"])
        ids += model
        mask += [1] * len(model)
        if eos is not None:  # the model's own end of turn, or the one closing a cut turn
            ids.append(eos)
            mask.append(0 if turn.cut else 1)
        before = [*context, {"role": "assistant", "content": turn.text}]
        context = before
        if k + 1 < len(episode.turns) and turn.observations:
            context = [*before, *(EpisodeRunner.message(o, tool_role) for o in turn.observations)]
            env = env_turn_ids(tokenizer, before, context)
            ids += env
            mask += [0] * len(env)
    return prompt, ids, mask


@dataclass
class _Live:
    """One episode in progress."""

    task: Task
    index: int
    session: Session
    messages: list[Message]
    prompt_ids: list[int] | None
    ids: list[int] = field(default_factory=list)
    mask: list[int] = field(default_factory=list)
    logprobs: list[float] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    end: EpisodeEnd | None = None
    submitted: bool = False

    def prompt(self) -> TokenPrompt | list[Message]:
        if self.prompt_ids is None:
            return list(self.messages)
        return TokenPrompt(ids=self.prompt_ids + self.ids, messages=list(self.messages))


class EpisodeRunner:
    """Runs an environment's episodes with one policy."""

    def __init__(self, env: Environment, policy: Policy) -> None:
        if env.episode is None:
            raise ValueError(f"environment {env.name!r} is single-turn (no [episode] table)")
        self.env, self.spec, self.policy = env, env.episode, policy
        self.tokenizer = getattr(policy, "tokenizer", None)
        self.tool_role = self.tokenizer is not None and adopt_tool_template(self.tokenizer)
        model = getattr(policy, "model", None)
        config = getattr(model, "config", None)
        self.context = getattr(config, "max_position_embeddings", None)

    def run(
        self, tasks: Sequence[Task], g: int, sampling: SamplingConfig
    ) -> list[list[EpisodeResult]]:
        """G finished episodes per task, in task order. Sessions open, and final judges run,
        on a thread pool (a terminal session starts a container; its judge runs the tests).
        Episodes run in waves no larger than the host admits (rlvr.episodes.admission)."""
        wanted = [(t, i) for t in tasks for i in range(g)]
        size = admitted(self.env, len(wanted))
        done: list[EpisodeResult] = []
        waiting = len(wanted)
        note_waiting(waiting)  # the progress bar's "queued" reads this
        try:
            for start in range(0, len(wanted), size):
                wave = wanted[start : start + size]
                note_waiting(-len(wave))
                waiting -= len(wave)
                if size < len(wanted):
                    print(f"episodes {start + 1}-{start + len(wave)} of {len(wanted)} (at most "
                          f"{size} at once on this host)", file=sys.stderr, flush=True)  # fmt: skip
                done += self._wave(wave, sampling)
        finally:
            note_waiting(-waiting)
        return [done[k * g : (k + 1) * g] for k in range(len(tasks))]

    def _wave(
        self, wanted: list[tuple[Task, int]], sampling: SamplingConfig
    ) -> list[EpisodeResult]:
        live: list[_Live] = []
        try:
            self._open_all(wanted, live)
            for turn in range(self.spec.max_turns):
                active = [e for e in live if e.end is None]
                if not active:
                    break
                self._round(active, turn, sampling)
            for e in live:
                if e.end is None:
                    e.end = "budget"
            return self._finish(live)
        finally:
            for e in live:
                e.session.close()

    def _open_all(self, wanted: list[tuple[Task, int]], live: list[_Live]) -> None:
        """Open every episode into `live`; every session that opened is kept there (and so
        closed by the caller) even when another one fails to open."""
        failure: BaseException | None = None
        with ThreadPoolExecutor(max_workers=max(1, min(TOOL_WORKERS, len(wanted)))) as pool:
            for future in [pool.submit(self._open, t, i) for t, i in wanted]:
                try:
                    live.append(future.result())
                except BaseException as e:  # re-raised once every session is in `live`
                    failure = failure or e
        if failure is not None:
            raise failure

    def _open(self, task: Task, index: int) -> _Live:
        messages = self.env.messages(task)
        ids = None
        if self.tokenizer is not None:
            from rlvr.policies.hf import encode_prompt  # heavy: torch, transformers

            ids = encode_prompt(self.tokenizer, messages)
        return _Live(task, index, self.spec.open_session(self.env, task), messages, ids)

    def _round(self, active: list[_Live], turn: int, sampling: SamplingConfig) -> None:
        sampling = sampling.model_copy(update={"tools": self.spec.schemas()})
        if sampling.seed is not None:
            sampling = sampling.model_copy(update={"seed": sampling.seed + 7919 * turn})
        if self.context is not None:
            room = self.context - (sampling.max_new_tokens or 256)
            for e in active:
                if e.prompt_ids is not None and len(e.prompt_ids) + len(e.ids) > room:
                    e.end = "context"
            active = [e for e in active if e.end is None]
            if not active:
                return
        labels = [episode_label(e.task.id, e.index) for e in active]
        samples = self.policy.sample([e.prompt() for e in active], 1, sampling, task_ids=labels)
        last = turn == self.spec.max_turns - 1
        with ThreadPoolExecutor(max_workers=min(TOOL_WORKERS, len(active))) as pool:
            list(pool.map(lambda e, s: self._step(e, s[0], last), active, samples))

    def _step(self, e: _Live, s: Sample, last: bool) -> None:
        """Record the model's turn, run its calls, and append the environment's answer."""
        if s.finish_reason == "error" and not s.text:  # a server refused the full context
            if not e.turns:  # before any turn: the run's settings, not the episode, are at fault
                raise PolicyError(
                    f"the policy server refused the first turn of {e.task.id}: the prompt and "
                    "max_new_tokens do not fit the model's context",
                    "lower --max-new-tokens, or serve the model with a longer context (vLLM: "
                    "--max-model-len)",
                )
            e.end = "context"
            return
        model_ids = list(s.token_ids or [])
        e.ids += model_ids
        e.mask += [1] * len(model_ids)
        e.logprobs += list(s.logprobs) if s.logprobs is not None else [0.0] * len(model_ids)
        e.session.note_turn(s.text)
        turn = Turn(text=s.text, model_tokens=len(model_ids) if s.token_ids is not None else None)
        e.turns.append(turn)
        before = [*e.messages, {"role": "assistant", "content": s.text}]
        e.messages = before
        if s.finish_reason == "length":  # cut by the token limit: the turn still counts
            turn.cut = True
            eos = getattr(self.tokenizer, "eos_token_id", None)
            if e.prompt_ids is not None and eos is not None:  # close it as the template would
                e.ids.append(eos)
                e.mask.append(0)
                e.logprobs.append(0.0)
                turn.env_tokens = 1
        read = read_calls(s.text, self.spec.tools)
        if read.problem is not None:
            turn.observations.append(Observation(content=read.problem, error=True))
        elif not read.calls and self.spec.on_no_call == "end":
            e.end = "no_call"
            return
        elif not read.calls:
            turn.observations.append(Observation(content=NO_CALL, error=True))
        for call in read.calls:
            turn.calls.append(call)
            obs = self._call(e.session, call)
            turn.observations.append(obs)
            if call.name == self.spec.submit_tool and not (obs.error or obs.retry):
                e.end = "submit"
                return
        if last:
            e.end = "budget"
            return
        e.messages = [*before, *(self.message(o, self.tool_role) for o in turn.observations)]
        if e.prompt_ids is not None:
            env_ids = env_turn_ids(self.tokenizer, before, e.messages)
            e.ids += env_ids
            e.mask += [0] * len(env_ids)
            e.logprobs += [0.0] * len(env_ids)
            turn.env_tokens = (turn.env_tokens or 0) + len(env_ids)

    def _call(self, session: Session, call: Any) -> Observation:
        try:
            obs = session.call(call)
        except Exception as exc:  # a tool bug is the environment's, shown, never a crash
            obs = Observation(tool=call.name, content=f"the tool failed: {exc}", error=True)
        limit = self.spec.observation_chars
        if len(obs.content) > limit:
            cut = len(obs.content) - limit
            obs = obs.model_copy(
                update={"content": obs.content[:limit] + f"\n[{cut} more characters cut]"}
            )
        return obs

    @staticmethod
    def message(obs: Observation, tool_role: bool = False) -> Message:
        """The chat message that carries one observation to the model: a `tool` message where
        the model's template renders them (as TRL's agent path sends them), else user text."""
        name = obs.tool or "error"
        if tool_role:
            return {"role": "tool", "name": name, "content": obs.content}
        return {"role": "user", "content": tool_response(name, obs.content)}

    def _finish(self, live: list[_Live]) -> list[EpisodeResult]:
        def judge(e: _Live) -> Verdict | None:
            try:
                return e.session.verdict()
            except Exception as err:  # a judge's bug or a task's bad input: this episode only
                return Verdict.error("grader_error", f"the judge raised {type(err).__name__}: "
                                     f"{str(err)[:300]}")  # fmt: skip
            finally:
                e.session.close()  # release the container as soon as its judge is done

        with ThreadPoolExecutor(max_workers=max(1, min(TOOL_WORKERS, len(live)))) as pool:
            verdicts = list(pool.map(judge, live))
        out: list[EpisodeResult] = []
        for e, verdict in zip(live, verdicts, strict=True):
            answer = e.session.answer()
            has_ids = e.prompt_ids is not None
            sample = Sample(
                task_id=e.task.id,
                index=e.index,
                text=answer,
                token_ids=e.ids if has_ids else None,
                logprobs=e.logprobs if has_ids else None,
                prompt_token_ids=e.prompt_ids,
                token_mask=e.mask if has_ids else None,
                finish_reason="length" if any(t.cut for t in e.turns) else "stop",
                episode=Episode(turns=e.turns, end=e.end or "budget", answer=answer),
            )
            out.append(EpisodeResult(sample, verdict))
        return out


def run_episodes(
    env: Environment, policy: Policy, tasks: Sequence[Task], g: int, sampling: SamplingConfig
) -> tuple[list[list[EpisodeResult]], float]:
    """G episodes per task and the seconds they took."""
    start = time.perf_counter()
    groups = EpisodeRunner(env, policy).run(tasks, g, sampling)
    return groups, time.perf_counter() - start
