"""The `env.toml` manifest: its schema and its loader with one-line, fixable errors.

A manifest is validated by pydantic; every validation error becomes a line naming the file, the
field path, what was expected, what was given, and how to fix it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rlvr.errors import ManifestError, format_validation_error
from rlvr.splits import SplitSpec

MANIFEST_NAME = "env.toml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TasksSpec(_Strict):
    """Where the tasks come from: a JSONL file of Task lines, or a Python loader."""

    path: str | None = Field(
        default=None, description="JSONL file of tasks, relative to the manifest folder."
    )
    loader: str | None = Field(
        default=None, description="'module:function' returning a list of Task; gets `args`."
    )
    args: dict[str, Any] = Field(default_factory=dict, description="Keyword args for `loader`.")

    @model_validator(mode="after")
    def _one_source(self) -> TasksSpec:
        if (self.path is None) == (self.loader is None):
            raise ValueError(
                "give exactly one of tasks.path (a JSONL file) or tasks.loader ('module:function')"
            )
        if self.loader is not None and ":" not in self.loader:
            raise ValueError(
                f"tasks.loader must look like 'package.module:function', got {self.loader!r}"
            )
        return self


class PromptSpec(_Strict):
    """How a task becomes a user message."""

    template: str = Field(
        default="{prompt}",
        description="Python format string over the task's fields ({prompt}, {tools_json}, ...).",
    )
    system: str | None = Field(default=None, description="Optional system prompt.")
    stop_at_closed_fence: bool = Field(
        default=False,
        description="End each answer after its first closed fenced block: set where the "
        "template asks for one block, so the words after it are neither graded nor decoded.",
    )


class GraderSpec(_Strict):
    """Which grader checks answers, and its options."""

    kind: str = Field(description="A registered grader kind: math, toolcall, code, ...")
    options: dict[str, Any] = Field(default_factory=dict)


MIN_RETRY_REWARD = 0.01
"""Below it a pass after a retry would score about as a failure (or underflow to 0)."""


class EpisodeTable(_Strict):
    """`[episode]`: the environment runs as multi-turn episodes (rlvr.episodes)."""

    max_turns: int = Field(ge=1, le=256, description="Model turns an episode may take.")
    tools: list[str] = Field(description="Offered tools, e.g. ['run_public_tests', 'submit'].")
    session: str = Field(
        description="'repair' (function tasks) or "
        "'package.module:function' returning a session for (env, task)."
    )
    submit_tool: str | None = Field(default="submit", description="The tool that ends it.")
    observation_chars: int = Field(default=4000, ge=200, le=200_000)
    tool_descriptions: dict[str, str] = Field(
        default_factory=dict,
        description="This environment's own wording of some tools, e.g. what `submit` judges.",
    )
    on_no_call: Literal["end", "remind"] = Field(
        default="end", description="A turn without a tool call: end the episode, or remind."
    )
    retry_reward: float = Field(
        default=1.0,
        ge=MIN_RETRY_REWARD,
        le=1,
        description="Retry session: a right answer after k turned-down ones earns "
        "retry_reward**k (below 1 a right first answer is worth more than a rescued one).",
    )


class RequiresSpec(_Strict):
    """Optional packages the environment needs (its task data or grader come from them)."""

    modules: list[str] = Field(description="Modules that must be importable, e.g. ['bfcl_eval'].")
    extra: str | None = Field(default=None, description="The rlvr extra that installs them.")

    def missing(self) -> list[str]:
        """The modules that are not installed."""
        from importlib.util import find_spec

        out = []
        for module in self.modules:
            try:
                found = find_spec(module) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                out.append(module)
        return out

    def install_hint(self) -> str:
        if self.extra:
            return f"pip install 'rlvr[{self.extra}]'"
        return "pip install " + " ".join(self.modules)


class Manifest(_Strict):
    """The contents of `envs/<name>/env.toml`."""

    name: str = Field(pattern=r"^[a-z0-9][a-z0-9_.-]*$", description="Environment name.")
    description: str = ""
    tasks: TasksSpec
    prompt: PromptSpec = Field(default_factory=PromptSpec)
    grader: GraderSpec
    sandbox: dict[str, Any] | None = Field(
        default=None, description="Sandbox spec for code environments (image, test command...)."
    )
    episode: EpisodeTable | None = Field(
        default=None, description="Multi-turn: turn budget, tools and session of an episode."
    )
    requires: RequiresSpec | None = Field(
        default=None, description="Optional packages it needs and the extra that installs them."
    )
    split: SplitSpec = Field(
        default_factory=SplitSpec,
        description="Held-out split: test_fraction, salt or explicit test_ids (rlvr.splits).",
    )


def read_manifest(folder: Path | str) -> Manifest:
    """Load and validate `<folder>/env.toml` (or a path to the file itself)."""
    path = Path(folder)
    if path.is_dir():
        path = path / MANIFEST_NAME
    if not path.is_file():
        raise ManifestError(
            f"{path}: no manifest found",
            f"create {MANIFEST_NAME} in the environment folder (copy one from envs/)",
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ManifestError(f"{path}: not valid TOML ({e})", "fix the TOML syntax") from None
    try:
        return Manifest.model_validate(data)
    except ValidationError as e:
        raise ManifestError(format_validation_error(str(path), e)) from None
