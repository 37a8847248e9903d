"""rlvr episodes inside TRL 1.16's agent path: `GRPOTrainer(environment_factory=...)`.

`environment_factory(env)` returns a class TRL instantiates once per rollout. Its public methods
are the environment's tools (typed, with docstrings, as TRL and transformers' chat templates
read them); `reset(task_id=...)` opens the task's session (a repair session, or a terminal
container) and the final judge runs once, closes the session and returns the reward (None for
a masked verdict, which TRL leaves out): in `get_reward()` for an environment judged on its
state, in `episode_reward` for one that grades the model's text (below). TRL generates,
parses the calls with the chat template's response parser, calls the methods and masks the
tool results out of the loss itself.

The model's text: TRL hands an environment only tool calls, but a repair environment grades
the code the model wrote, in its text or as a tool's `code` argument (rlvr's loop takes the
last of either). For such an environment the class has no `get_reward`; the reward function
`episode_reward(completions, environments)` first replays the rollout's messages into the
session (each assistant message's last code block, then its calls' `code` arguments, in
order) and then judges. `trainer_kwargs(env)` gives the right pair for any repair or terminal
environment (a retry environment is refused: its session grades each turn's text, which TRL
never shows it): `GRPOTrainer(model=..., args=..., train_dataset=..., **trainer_kwargs(env))`.

What TRL's API cannot express, and how rlvr's own learners differ:
- a turn without a call simply ends the rollout;
- a masked verdict reaches TRL as `None` (it leaves the rollout out); rlvr says why on stderr,
  once per environment and status;
- malformed calls are TRL's business (no observation that names the problem and costs a turn);
- the turn budget is TRL's `max_tool_calling_iterations`, not the manifest's `max_turns`;
- the submit tool cannot end the rollout early; the model has to stop calling tools;
- only chat templates TRL knows (Qwen, Llama 3, ...) can parse calls: give a ChatML model
  without a tool template (SmolLM2) one with `rlvr.policies.tool_template.with_tool_template`
  first; hack flags on episodes and per-turn metrics are not computed on TRL's side.
"""

from __future__ import annotations

import functools
import inspect
import json
import sys
from collections.abc import Callable
from typing import Any

from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.types import ToolCall


class EpisodeEnvironment:
    """One rollout of a multi-turn rlvr environment, as TRL drives it (see the module doc)."""

    env: Environment

    def __init__(self) -> None:
        self.session: Any = None
        self.task_id: str | None = None

    def reset(self, task_id: str | None = None, **_: Any) -> str | None:
        """Open the task's session; the prompt itself comes from the dataset."""
        self._close()
        if task_id is None:
            raise RlvrError("the dataset needs a task_id column", "build it with to_hf_dataset")
        assert self.env.episode is not None
        self.task_id = task_id
        self.session = self.env.episode.open_session(self.env, self.env.task(task_id))
        return None

    def _call(self, name: str, **arguments: Any) -> str:
        if self.session is None:
            return "no episode is open"
        args = {k: v for k, v in arguments.items() if v is not None}
        obs = self.session.call(ToolCall(name=name, arguments=args))
        limit = self.env.episode.observation_chars if self.env.episode else 4000
        return obs.content[:limit]

    def _reward(self) -> float | None:
        """The final judge's reward for this rollout (None when the verdict is masked)."""
        if self.session is None or self.task_id is None:
            return None
        try:
            verdict = self.session.verdict()
            if verdict is None:
                task = self.env.task(self.task_id)
                verdict = self.env.grade(task, [self.session.answer()])[0]
        finally:
            self._close()
        if not verdict.is_scored:  # TRL leaves a None out of the group: say why, once each
            _tell_masked(self.env.name, self.task_id, verdict.status, verdict.reason)
            return None
        return verdict.reward

    def _close(self) -> None:
        """Release the session (private: TRL offers every public method as a tool)."""
        if self.session is not None:
            self.session.close()
            self.session = None

    def _take_text(self, completion: Any) -> None:
        """Replay a rollout's messages into a session that grades text (see the module doc).
        Whatever is not shaped as a message, a call or JSON arguments is skipped: one odd
        rollout never stops the judging of its batch."""
        take = getattr(self.session, "take_code", None)
        if take is None or not isinstance(completion, list):
            return
        for message in completion:
            if not isinstance(message, dict) or message.get("role") != "assistant":
                continue
            content = message.get("content")
            if isinstance(content, str):
                self.session.note_turn(content)
            calls = message.get("tool_calls")
            for call in calls if isinstance(calls, list | tuple) else []:
                code = _code_argument(call)
                if code is not None:
                    take(code)


def _code_argument(call: Any) -> str | None:
    """A tool call's non-empty `code` argument (arguments as a dict or a JSON string)."""
    function = call.get("function") if isinstance(call, dict) else None
    args = function.get("arguments") if isinstance(function, dict) else None
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except (ValueError, RecursionError):
            return None
    code = args.get("code") if isinstance(args, dict) else None
    return code if isinstance(code, str) and code.strip() else None


class OwnsReward(EpisodeEnvironment):
    """An environment judged on its state alone (a terminal's workspace): TRL calls
    `get_reward` once per rollout."""

    def get_reward(self) -> float | None:
        """The final judge's reward for this rollout (None when the verdict is masked)."""
        return self._reward()


def episode_reward(
    completions: list[Any], environments: list[EpisodeEnvironment], **_: Any
) -> list[float | None]:
    """TRL reward function: each rollout's verdict, once its text reached the session."""
    rewards = []
    for completion, rollout in zip(completions, environments, strict=True):
        rollout._take_text(completion)
        rewards.append(rollout._reward())
    return rewards


_told: set[tuple[str, str]] = set()


def _tell_masked(env: str, task_id: str, status: str, reason: str) -> None:
    """One stderr line per (environment, status) for a masked verdict: TRL only sees None."""
    if (env, status) not in _told:
        _told.add((env, status))
        print(f"rlvr: {env} task {task_id}: the verdict is masked ({status}: {reason[:500]}); "
              "TRL leaves this rollout out of its group (later ones with the same status are "
              "not repeated)", file=sys.stderr, flush=True)  # fmt: skip


class _Tools(EpisodeEnvironment):
    """Every shipped tool as a method; an environment's class takes the ones it offers."""

    def run_public_tests(self, code: str) -> str:
        """Run your code on the task's public examples and see which of them fail.

        Args:
            code: The whole function, as source code.
        """
        return self._call("run_public_tests", code=code)

    def submit(self, code: str | None = None) -> str:
        """Submit your final answer; it is judged on hidden tests.

        Args:
            code: The whole function, as source code (repair tasks); omit it for terminal tasks.
        """
        return self._call("submit", code=code)

    def bash(self, command: str, timeout_s: float | None = None) -> str:
        """Run a shell command in the workspace /app and return its exit code and output.

        Args:
            command: The command line, run by bash.
            timeout_s: Seconds before the command is stopped.
        """
        return self._call("bash", command=command, timeout_s=timeout_s)

    def read_file(self, path: str) -> str:
        """Read a text file of the workspace.

        Args:
            path: The file's path, relative to /app or absolute.
        """
        return self._call("read_file", path=path)

    def write_file(self, path: str, content: str) -> str:
        """Write (create or replace) a text file of the workspace.

        Args:
            path: The file's path, relative to /app or absolute.
            content: The file's new text.
        """
        return self._call("write_file", path=path, content=content)


TOOL_METHODS = {name: vars(_Tools)[name] for name in
                ("run_public_tests", "submit", "bash", "read_file", "write_file")}  # fmt: skip


def environment_factory(env: Environment) -> type[EpisodeEnvironment]:
    """A class for `GRPOTrainer(environment_factory=...)` exposing `env`'s tools as methods."""
    if env.episode is None:
        raise RlvrError(
            f"environment {env.name!r} is single-turn",
            "use rlvr.integrations.trl.reward_funcs for it, or pick a multi-turn environment",
        )
    missing = [name for name in env.episode.tools if name not in TOOL_METHODS]
    if missing:  # e.g. submit_answer: its session reads each turn's text, which TRL never shows
        raise RlvrError(
            f"environment {env.name!r} offers {', '.join(missing)}, which TRL's tool loop "
            "cannot drive (the session needs every turn's text, not just the calls)",
            "train it with rlvr's own learners (`rlvr train`), or pick a repair or terminal "
            "environment for TRL",
        )
    own = env.episode.descriptions
    methods = {name: _described(TOOL_METHODS[name], own[name]) if name in own
               else TOOL_METHODS[name] for name in env.episode.tools}  # fmt: skip
    name = "Rlvr" + "".join(p.capitalize() for p in env.name.replace("_", "-").split("-"))
    base = EpisodeEnvironment if grades_text(env) else OwnsReward
    return type(name, (base,), {"env": env, **methods})


def grades_text(env: Environment) -> bool:
    """Whether the environment's answer is code the model writes (a repair session), which
    TRL never shows an environment: then `episode_reward` judges, not `get_reward`."""
    return env.episode is not None and "run_public_tests" in env.episode.tools


def trainer_kwargs(env: Environment) -> dict[str, Any]:
    """`GRPOTrainer` keyword arguments for `env`'s episodes: the environment class, and
    `episode_reward` where the environment grades the model's text."""
    factory = environment_factory(env)
    return {"environment_factory": factory, **({"reward_funcs": [episode_reward]}
                                              if grades_text(env) else {})}  # fmt: skip


def _described(method: Callable[..., str], description: str) -> Callable[..., str]:
    """`method` under the environment's own description (TRL reads a tool's description and
    arguments from its docstring; the arguments part is kept)."""

    @functools.wraps(method)
    def described(self: EpisodeEnvironment, *args: Any, **kwargs: Any) -> str:
        return method(self, *args, **kwargs)

    doc = inspect.cleandoc(method.__doc__ or "")
    at = doc.find("Args:")
    described.__doc__ = description + ("\n\n" + doc[at:] if at >= 0 else "")
    return described
