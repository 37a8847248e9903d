"""torch.distributed for learners on several GPUs or processes: data parallel, by hand.

Launch with torchrun (or `accelerate launch`), which sets RANK, WORLD_SIZE, LOCAL_RANK,
MASTER_ADDR and MASTER_PORT for every process:

    torchrun --standalone --nproc_per_node 4 --no-python rlvr train --out runs/x --set device=cuda

The backend is nccl when the learner trains on CUDA (each rank on GPU LOCAL_RANK) and gloo on
CPU. Why not DistributedDataParallel: the learners call the model's own `generate` and
`save_pretrained` and accumulate over micro-batches, and a wrapper would have to be unwrapped
at each of those places. Instead the weights start equal (`broadcast_parameters` from rank 0)
and every update averages the gradients over ranks (`all_reduce_gradients`, bucketed) before
clipping, so every rank takes the same step and holds the same weights after it.

Each rank samples its own tasks (`rank_config` offsets the seed by the rank) and writes its own
run folder (`run_dir`: rank 0 the given folder, rank r `<folder>/rank-r`), so a resumed run
restores each rank's own sampler position; transformers writes model weights on rank 0 only, so
a resuming rank r loads the starting model and receives rank 0's resumed weights by broadcast.
Every rank must make the same number of updates per step: a step where any rank has nothing to
train on is skipped by all (`all_ranks`). Outside torchrun (WORLD_SIZE unset or 1) every helper
is a no-op.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import torch

from rlvr.errors import RlvrError

BUCKET_MB = 25
C = TypeVar("C")


def _active() -> bool:
    import torch.distributed as dist

    return dist.is_available() and dist.is_initialized() and dist.get_world_size() > 1


@dataclass(frozen=True)
class DistContext:
    """Who this process is among the ranks of a run (rank 0 of 1 outside torchrun)."""

    rank: int = 0
    world_size: int = 1
    local_rank: int = 0
    backend: str | None = None

    @property
    def enabled(self) -> bool:
        return self.world_size > 1

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    def run_dir(self, out: str | Path) -> Path:
        """Rank 0 writes the run folder itself; rank r writes `<out>/rank-r`."""
        return Path(out) if self.is_main else Path(out) / f"rank-{self.rank}"

    def rank_config(self, config: C) -> C:
        """The config with `seed + rank`, so ranks sample different tasks and answers."""
        if not self.enabled:
            return config
        return config.model_copy(update={"seed": config.seed + self.rank})  # type: ignore[attr-defined]

    def broadcast_parameters(self, model: torch.nn.Module) -> None:
        """Copy rank 0's parameters and buffers to every rank."""
        if not self.enabled:
            return
        import torch.distributed as dist

        with torch.no_grad():
            for tensor in [*model.parameters(), *model.buffers()]:
                dist.broadcast(tensor.data, src=0)

    def all_ranks(self, flag: bool, device: torch.device | str = "cpu") -> bool:
        """True only when `flag` is true on every rank (a collective: every rank must call)."""
        if not self.enabled:
            return flag
        import torch.distributed as dist

        t = torch.tensor([1 if flag else 0], device=self._device(device))
        dist.all_reduce(t, op=dist.ReduceOp.MIN)
        return bool(t.item())

    def _device(self, device: torch.device | str) -> torch.device:
        if self.backend == "nccl":
            return torch.device("cuda", self.local_rank)
        return torch.device(device)

    def finish(self) -> None:
        """Leave the process group (at the end of a run)."""
        if self.enabled and _active():
            import torch.distributed as dist

            dist.destroy_process_group()


def init_from_env(device: str = "cpu", timeout_s: float = 1800.0) -> DistContext:
    """Join the process group torchrun describes in the environment; a no-op without it."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world <= 1:
        return DistContext()
    import torch.distributed as dist

    try:
        rank = int(os.environ["RANK"])
        local = int(os.environ.get("LOCAL_RANK", rank))
    except (KeyError, ValueError) as e:
        raise RlvrError(
            f"WORLD_SIZE={world} is set but RANK/LOCAL_RANK are missing or not numbers ({e})",
            "launch with torchrun (or accelerate launch), which sets all of them",
        ) from None
    backend = "nccl" if device == "cuda" else "gloo"
    if backend == "nccl":
        if not torch.cuda.is_available() or local >= torch.cuda.device_count():
            raise RlvrError(
                f"rank {rank} wants GPU {local} but torch sees {torch.cuda.device_count()} GPUs",
                "launch at most one process per GPU (torchrun --nproc_per_node <GPUs>)",
            )
        torch.cuda.set_device(local)
    if not dist.is_initialized():
        dist.init_process_group(backend, timeout=timedelta(seconds=timeout_s))
    return DistContext(rank=rank, world_size=world, local_rank=local, backend=backend)


def all_reduce_gradients(params: Iterable[torch.nn.Parameter], bucket_mb: int = BUCKET_MB) -> None:
    """Average every parameter's gradient over the ranks; a no-op outside a process group.

    A parameter without a gradient on this rank gets zeros, so that every rank reduces the
    same tensors in the same order. Gradients are flattened into buckets of about `bucket_mb`
    to make few large collectives instead of one per parameter.
    """
    if not _active():
        return
    import torch.distributed as dist

    world = dist.get_world_size()
    grads: list[torch.Tensor] = []
    for p in params:
        if p.grad is None:
            p.grad = torch.zeros_like(p)
        grads.append(p.grad)
    for bucket in _buckets(grads, bucket_mb * 2**20):
        flat = torch.cat([g.reshape(-1) for g in bucket])
        dist.all_reduce(flat, op=dist.ReduceOp.SUM)
        flat.div_(world)
        offset = 0
        for g in bucket:
            n = g.numel()
            g.copy_(flat[offset : offset + n].view_as(g))
            offset += n


def _buckets(grads: list[torch.Tensor], limit: int) -> list[list[torch.Tensor]]:
    """Consecutive runs of same-dtype, same-device tensors of at most `limit` bytes each."""
    out: list[list[torch.Tensor]] = []
    size = 0
    key: Any = None
    for g in grads:
        nbytes = g.numel() * g.element_size()
        here = (g.dtype, g.device)
        if not out or here != key or size + nbytes > limit:
            out.append([])
            key, size = here, 0
        out[-1].append(g)
        size += nbytes
    return out
