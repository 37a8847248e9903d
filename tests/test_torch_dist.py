"""torch.distributed helpers: two gloo ranks launched by torchrun run one GRPO step each.

Run as a script under torchrun, this file is the rank program: it checks the gradient
all-reduce on hand-made gradients, then trains the real GRPO learner for one step on the
digit environment. The test then compares the two ranks' checkpoints: they trained on
different answers (their seeds differ by rank) yet hold identical weights, which moved.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from rlvr.distributed.torch_dist import DistContext, all_reduce_gradients, init_from_env

HERE = Path(__file__).resolve()
TORCHRUN = Path(sys.executable).with_name("torchrun")


def _rank_main(out: Path) -> None:
    from learner_env import FAST, digit_env

    from rlvr.learners.config import LearnerConfig
    from rlvr.learners.grpo import train

    dist = init_from_env("cpu")
    params = [torch.nn.Parameter(torch.zeros(3)), torch.nn.Parameter(torch.zeros(2, 2))]
    params[0].grad = torch.full((3,), float(dist.rank + 1))  # rank 0: 1, rank 1: 2
    all_reduce_gradients(params, bucket_mb=1)  # params[1] has no grad: zeros join the sum
    check = {
        "rank": dist.rank,
        "world": dist.world_size,
        "backend": dist.backend,
        "grad0": params[0].grad.tolist(),
        "grad1": params[1].grad.tolist(),
        "all_true": dist.all_ranks(True),
        "one_false": dist.all_ranks(dist.rank == 0),
    }
    rank_dir = dist.run_dir(out)
    rank_dir.mkdir(parents=True, exist_ok=True)
    (rank_dir / "check.json").write_text(json.dumps(check))
    cfg = LearnerConfig(**{**FAST, "steps": 1, "seed": 3, "temperature": 1.5})
    seen: dict[int, torch.nn.Module] = {}

    def remember(module: torch.nn.Module, _args: object, _out: object) -> None:
        if type(module).__name__.endswith("ForCausalLM"):  # the policy being trained
            seen[id(module)] = module

    # transformers writes weights on rank 0 only, so each rank saves what it holds in memory
    hook = torch.nn.modules.module.register_module_forward_hook(remember)
    train(cfg, out, env=digit_env())
    hook.remove()
    (model,) = seen.values()
    state = {k: v.detach().clone() for k, v in model.state_dict().items()}
    torch.save(state, rank_dir / "final.pt")
    dist.finish()


def _weights(folder: Path) -> dict[str, torch.Tensor]:
    from safetensors.torch import load_file

    return load_file(str(folder / "model.safetensors"))


def test_outside_torchrun_every_helper_is_a_no_op(tmp_path: Path) -> None:
    ctx = init_from_env("cpu")
    assert ctx == DistContext() and not ctx.enabled and ctx.is_main
    assert ctx.run_dir(tmp_path) == tmp_path
    assert ctx.all_ranks(False) is False and ctx.all_ranks(True) is True
    p = torch.nn.Parameter(torch.ones(2))
    p.grad = torch.tensor([1.0, 3.0])
    all_reduce_gradients([p])
    assert p.grad.tolist() == [1.0, 3.0]
    assert DistContext(rank=2, world_size=4).run_dir(tmp_path) == tmp_path / "rank-2"


@pytest.mark.skipif(not TORCHRUN.exists(), reason="torchrun is not installed beside python")
def test_two_gloo_ranks_hold_identical_weights_after_a_grpo_step(tmp_path: Path) -> None:
    from rlvr import tiny

    start = tiny.tiny_dir()  # build the shared starting model once, before the ranks race
    out = tmp_path / "run"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(HERE.parent)}
    cmd = [str(TORCHRUN), "--standalone", "--nproc_per_node", "2", str(HERE), str(out)]
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]

    checks = [json.loads((d / "check.json").read_text()) for d in (out, out / "rank-1")]
    for c in checks:
        assert (c["world"], c["backend"]) == (2, "gloo")
        assert c["grad0"] == [1.5, 1.5, 1.5]  # the mean of 1 and 2
        assert c["grad1"] == [[0.0, 0.0], [0.0, 0.0]]
        assert (c["all_true"], c["one_false"]) == (True, False)

    rank0 = torch.load(out / "final.pt")
    rank1 = torch.load(out / "rank-1" / "final.pt")
    saved = _weights(out / "checkpoints" / "step-000001" / "policy")
    initial = _weights(start)
    assert rank0.keys() == rank1.keys()
    assert all(torch.equal(rank0[k], rank1[k]) for k in rank0)
    assert all(torch.equal(saved[k], rank0[k]) for k in saved)  # the checkpoint is that state
    assert any(not torch.equal(saved[k], initial[k]) for k in saved if k in initial)

    def answers(run: Path) -> list[str]:
        lines = (run / "groups.jsonl").read_text().splitlines()
        return [s["text"] for line in lines for s in json.loads(line)["samples"]]

    assert answers(out) != answers(out / "rank-1")  # different data, same step


if __name__ == "__main__":
    _rank_main(Path(sys.argv[1]))
