"""transformers' static KV cache for `HFPolicy`: when it is the default, and one cache reused.

Before 5.24, transformers allocates a static cache's values in its keys' dtype. Under bf16
autocast the rotary embedding leaves the keys fp32 while the values are bf16, so the first
cached step fails (index_copy_: Float and BFloat16; seen on an H200 with 5.17). Older versions
decode with the dynamic cache unless the static one is asked for by name.
"""

from __future__ import annotations

import inspect
from typing import Any

import torch
import transformers
from packaging.version import Version
from transformers import StaticCache

from rlvr.errors import PolicyError

STATIC_CACHE_SAFE = Version(transformers.__version__).release >= (5, 24)
Held = tuple[tuple[int, int], Any] | None
"""A policy's cache between calls: ((rows, length), the StaticCache), or None."""


def static_cache_default(device: torch.device | str) -> bool:
    """Whether a policy on `device` decodes with the static KV cache when not told."""
    return torch.device(device).type == "cuda" and STATIC_CACHE_SAFE


def static_kv(model: Any, held: Held, rows: int, length: int) -> tuple[Held, dict[str, Any]]:
    """generate's cache argument: one static KV cache, reset and reused while the shape holds.

    The same cache tensors on every call let the compiled forward replay its CUDA graph
    instead of recording it again (torch stops using a graph re-recorded too often). It
    stays allocated between steps: 2 x layers x rows x length x kv-heads x head-dim values,
    about 0.2 GB for the 0.5B shape at 64 x 288 in bf16. Returns (what to hold, the kwargs).
    """
    if held is not None and held[0] == (rows, length):
        cache = held[1]
        cache.reset()
    else:
        cache = StaticCache(config=model.config, max_cache_len=length)
    # transformers 5.24 renamed generate's `past_key_values` to `cache`
    name = "cache" if "cache" in inspect.signature(model.forward).parameters else None
    return ((rows, length), cache), {name or "past_key_values": cache}


def dtype_error(err: RuntimeError) -> PolicyError | None:
    """The fix for a static cache that cannot hold this model's keys and values, if `err` is
    that failure."""
    if "same dtype" not in str(err):
        return None
    return PolicyError(
        f"the static KV cache of transformers {transformers.__version__} cannot hold this "
        f"model's keys and values under autocast ({err})",
        fix="upgrade transformers to 5.24 or later, or set static_cache = false",
    )
