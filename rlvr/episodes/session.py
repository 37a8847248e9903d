"""What an episode talks to: a Session per episode, and the spec that opens one.

A session holds the episode's state (the code written so far, or a leased sandbox container)
and answers tool calls. When the episode ends the final judge runs outside the session's reach:
`answer()` is graded by the environment's grader as any single-turn answer is, unless the
session has its own post-episode judge (`verdict()`, e.g. tests copied into a container only
after the agent's processes are gone).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from rlvr.episodes.tools import tool_schemas, tools_prompt
from rlvr.manifest import MIN_RETRY_REWARD
from rlvr.types import Observation, Task, ToolCall, Verdict

if TYPE_CHECKING:
    from rlvr.env import Environment


class Session(Protocol):
    """One episode's environment side."""

    def note_turn(self, text: str) -> None:
        """See the model's turn before its calls run (e.g. remember the last code block)."""

    def call(self, call: ToolCall) -> Observation:
        """Run one schema-checked tool call; never raises for anything the model did."""
        ...

    def answer(self) -> str:
        """The episode's final answer, as the environment's grader reads answers."""
        ...

    def verdict(self) -> Verdict | None:
        """A post-episode judge's verdict, or None to grade `answer()` with the grader."""
        ...

    def close(self) -> None:
        """Release what the episode held (a container goes back only after a full wipe)."""


SessionFactory = Callable[["Environment", Task], Session]


@dataclass
class EpisodeSpec:
    """How an environment runs as episodes: its turn budget, tools and session."""

    max_turns: int
    tools: list[str]
    open_session: SessionFactory
    submit_tool: str | None = "submit"
    """Calling this tool ends the episode (None: only the turn budget or a call-less turn)."""
    observation_chars: int = 4000
    """An observation longer than this is cut (the model sees that it was)."""
    on_no_call: Literal["end", "remind"] = "end"
    """A turn without a tool call ends the episode ("end"), or is answered with a reminder of
    the call format and costs the turn ("remind": an agent must finish with the submit tool)."""
    retry_reward: float = 1.0
    """Retry session: a right answer after k turned-down ones earns retry_reward**k. At 1 a
    wrong first answer that a retry rescued is reinforced as much as a right one."""
    options: dict[str, Any] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    """The environment's own wording of some tools (manifest `[episode] tool_descriptions`)."""
    free_mb: Callable[[], int | None] | None = None
    """Memory (MiB) available where the sessions' containers run, for admission; None: this
    host's (sessions on Ray hosts report theirs)."""

    def __post_init__(self) -> None:
        if self.max_turns < 1:
            raise ValueError(f"max_turns must be at least 1, got {self.max_turns}")
        if not MIN_RETRY_REWARD <= self.retry_reward <= 1:  # NaN fails too
            raise ValueError(
                f"retry_reward must be between {MIN_RETRY_REWARD} and 1, got {self.retry_reward}"
            )
        self.schemas()  # unknown names fail here, with the list of known ones

    def schemas(self) -> list[dict[str, Any]]:
        """The offered tools' JSON Schemas, as sent to a server that calls tools itself."""
        return tool_schemas(self.tools, self.descriptions)

    def system_note(self) -> str:
        return tools_prompt(self.tools, self.descriptions) + (
            f"\nYou have at most {self.max_turns} turns."
            + (f" Call `{self.submit_tool}` when you are done." if self.submit_tool else "")
        )
