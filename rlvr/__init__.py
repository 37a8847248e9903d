"""rlvr: reinforcement learning with verifiable rewards."""

from rlvr.discovery import add_env_path, discover, register_env
from rlvr.env import Environment
from rlvr.errors import RlvrError
from rlvr.registry import load_env
from rlvr.types import Flag, GroupStats, Sample, ScoredGroup, Task, Verdict

__version__ = "0.1.0"

__all__ = [
    "Environment",
    "Flag",
    "GroupStats",
    "RlvrError",
    "Sample",
    "ScoredGroup",
    "Task",
    "Verdict",
    "add_env_path",
    "discover",
    "load_env",
    "register_env",
]
