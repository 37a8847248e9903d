"""int8 weights for sampling on a CPU: dynamic quantisation of a causal LM's Linear layers.

A decode step at small batch reads every weight once per token, so on a CPU its time is about
the weights' bytes over memory bandwidth, and int8 weights are a quarter of fp32's. On SmolLM2
-135M with one thread a decode step took 0.65x fp32's time at batch 1, 8 and 32 (bench/README.md,
"int8 sampling"). The answers are not fp32's: the weights are rounded per tensor, activations
per call. So int8 is for commands that only sample (`rlvr eval`, `rlvr frontier`), never for a
learner, whose recorded log-probs must be those of the weights it trains.
"""

from __future__ import annotations

import warnings

import torch
from transformers import PreTrainedModel

from rlvr.errors import PolicyError


def quantize_int8(model: PreTrainedModel) -> PreTrainedModel:
    """The model with every `nn.Linear` replaced by an int8 dynamically quantised one, in place.

    Embeddings stay fp32 (a tied LM head gets its own int8 copy), as do norms and attention.
    """
    if model.device.type != "cpu":
        raise PolicyError(
            f"int8 weights are a CPU sampling option; the model is on {model.device}",
            "drop --int8 on a GPU (bf16 is its fast path), or pass --device cpu",
        )
    try:
        from torch.ao.quantization import quantize_dynamic
    except ImportError:  # a torch without the eager quantisation API
        raise PolicyError(
            f"torch {torch.__version__} has no torch.ao.quantization.quantize_dynamic",
            "install torch==2.13.0 (the version rlvr pins), or drop --int8",
        ) from None
    with warnings.catch_warnings():  # the per-tensor API's deprecation notice, once per Linear
        warnings.simplefilter("ignore")
        return quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8, inplace=True)
