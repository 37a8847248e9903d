"""LoRA adapters on a causal LM (peft), for the learners and SFT: off unless `lora_rank` > 0.

The adapters are injected into the model in place (`peft.inject_adapter_in_model`) instead of
wrapping it in a `PeftModel`: the model keeps its class, its `.model` backbone (PPO's value
head reads it), `generate` and the samplers' code paths, and only the adapter weights have
`requires_grad`. A saved model is always a plain `save_pretrained` folder with the adapters
merged into the base weights, so `rlvr eval --model FOLDER` (and any transformers user) loads
it with no peft installed; the adapter weights alone go beside it (`lora_adapter.pt`) so a
resumed run continues the same adapters instead of starting new ones on the merged weights.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from rlvr.errors import RlvrError

if TYPE_CHECKING:  # torch is imported where used: the learners' configs import this module
    import torch

ADAPTER_FILE = "lora_adapter.pt"
LORA_JSON = "lora.json"


class LoraFields(BaseModel):
    """LoRA settings shared by the learners' configs and SFT's."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    lora_rank: int = Field(
        default=0,
        ge=0,
        description="LoRA rank r: train low-rank adapters on lora_targets and freeze the rest "
        "(0: full fine-tuning). Checkpoints hold the merged weights. Needs peft.",
    )
    lora_alpha: float = Field(
        default=16.0, gt=0, description="LoRA alpha: the adapter's update is scaled by alpha / r."
    )
    lora_targets: list[str] = Field(
        default_factory=lambda: ["q_proj", "k_proj", "v_proj", "o_proj"],
        description="Names of the Linear modules that get adapters (peft's target_modules), "
        "e.g. q_proj, v_proj, gate_proj, up_proj, down_proj for Llama-style models.",
    )
    lora_dropout: float = Field(
        default=0.0, ge=0, lt=1, description="Dropout on the adapter's input (training only)."
    )

    @property
    def lora(self) -> bool:
        """Whether LoRA is on."""
        return self.lora_rank > 0


def _peft() -> Any:
    try:
        import peft
    except ImportError:
        raise RlvrError(
            "lora_rank > 0 needs the peft package, which is not installed",
            "pip install 'rlvr[train]' (or pip install peft), or set lora_rank = 0",
        ) from None
    return peft


def add_lora(model: torch.nn.Module, cfg: LoraFields) -> torch.nn.Module:
    """Inject LoRA adapters into `model` in place and freeze every other weight; returns it."""
    import torch

    peft = _peft()
    names = {name.rsplit(".", 1)[-1] for name, _ in model.named_modules()}
    missing = [t for t in cfg.lora_targets if t not in names]
    if missing or not cfg.lora_targets:
        linear = sorted(
            {n.rsplit(".", 1)[-1] for n, m in model.named_modules() if type(m) is torch.nn.Linear}
        )
        raise RlvrError(
            f"lora_targets {missing or cfg.lora_targets} name no module of this model",
            f"pick among its Linear modules: {', '.join(linear)}",
        )
    config = peft.LoraConfig(
        r=cfg.lora_rank,
        lora_alpha=cfg.lora_alpha,
        lora_dropout=cfg.lora_dropout,
        target_modules=list(cfg.lora_targets),
        bias="none",
    )
    model = peft.inject_adapter_in_model(config, model)
    for name, param in model.named_parameters():
        param.requires_grad_("lora_" in name)
    checkpointing = getattr(model, "is_activation_checkpointing", None)  # transformers >= 5
    if checkpointing is None:
        checkpointing = getattr(model, "is_gradient_checkpointing", False)
    if checkpointing:
        # reentrant checkpointing passes no gradient through blocks whose inputs need none
        # (the embeddings are frozen): make the embedding output require it
        model.enable_input_require_grads()
    return model


def is_lora(model: torch.nn.Module) -> bool:
    """Whether `model` carries injected LoRA adapters."""
    return any("lora_" in name for name, _ in model.named_parameters())


def adapter_state(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The adapter weights alone (CPU copies), keyed by parameter name."""
    return {n: p.detach().cpu().clone() for n, p in model.named_parameters() if "lora_" in n}


def merged_copy(model: torch.nn.Module) -> torch.nn.Module:
    """A copy of `model` with every adapter merged into its base Linear and removed: the plain
    model class again, whose state dict has the base model's keys."""
    from peft.tuners.lora import LoraLayer

    clone = copy.deepcopy(model)
    for name, module in list(clone.named_modules()):
        if isinstance(module, LoraLayer):
            module.merge()
            parent_name, _, child = name.rpartition(".")
            parent = clone.get_submodule(parent_name) if parent_name else clone
            setattr(parent, child, module.get_base_layer())
    for param in clone.parameters():
        param.requires_grad_(True)
    return clone


def save_model(model: Any, path: Path, cfg: LoraFields | None = None) -> None:
    """`save_pretrained` into `path`; a LoRA model is saved merged, with its adapter weights
    and settings beside it (lora_adapter.pt, lora.json) for resuming."""
    import torch

    if not is_lora(model):
        model.save_pretrained(path)
        return
    merged_copy(model).save_pretrained(path)
    torch.save(adapter_state(model), Path(path) / ADAPTER_FILE)
    if cfg is not None:
        settings = cfg.model_dump(include={"lora_rank", "lora_alpha", "lora_targets"})
        (Path(path) / LORA_JSON).write_text(json.dumps(settings, indent=1) + "\n")


def load_adapter(model: torch.nn.Module, path: Path) -> None:
    """Load saved adapter weights (`lora_adapter.pt` in `path`) into an adapted model."""
    import torch

    state = torch.load(Path(path) / ADAPTER_FILE, map_location="cpu", weights_only=True)
    own = dict(model.named_parameters())
    unknown = sorted(set(state) - set(own))
    if unknown:
        raise RlvrError(
            f"{path}: adapter weights {unknown[:3]} do not fit the model",
            "resume with the run's own lora settings (its config.json)",
        )
    with torch.no_grad():
        for name, tensor in state.items():
            own[name].copy_(tensor)


def trainable_parameters(model: torch.nn.Module) -> tuple[int, int]:
    """(trainable, total) parameter counts."""
    total = sum(p.numel() for p in model.parameters())
    return sum(p.numel() for p in model.parameters() if p.requires_grad), total
