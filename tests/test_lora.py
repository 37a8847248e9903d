"""LoRA on the learners and SFT: only adapters train, the base stays frozen, saved models load
without peft (merged), a run resumes its adapters, `rlvr sft --lora-rank` output evaluates."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from learner_env import FAST, digit_env
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.errors import RlvrError
from rlvr.learners import common
from rlvr.learners.config import LearnerConfig
from rlvr.learners.grpo import train
from rlvr.policies.hf import load_pretrained
from rlvr.policies.lora import ADAPTER_FILE, LoraFields, add_lora, merged_copy, save_model
from rlvr.sft import SFTConfig, train_sft
from rlvr.tiny import build_tiny

pytest.importorskip("peft")

TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj")


def weights(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {n: p.detach().clone() for n, p in model.named_parameters()}


def adapted(rank: int = 4) -> tuple[torch.nn.Module, object]:
    model, tok = build_tiny(seed=0)
    return add_lora(model, LoraFields(lora_rank=rank, lora_alpha=8)), tok


def test_only_adapters_require_grad_and_they_are_a_small_share() -> None:
    model, _ = adapted()
    trainable = [n for n, p in model.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in n for n in trainable)
    assert any(t in n for n in trainable for t in TARGETS)
    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    assert n_train < 0.2 * sum(p.numel() for p in model.parameters())


def test_unknown_targets_are_refused_with_the_models_linear_names() -> None:
    model, _ = build_tiny(seed=0)
    with pytest.raises(RlvrError) as e:
        add_lora(model, LoraFields(lora_rank=4, lora_targets=["qkv"]))
    assert "['qkv']" in e.value.message and "q_proj" in e.value.fix


def test_an_sft_step_moves_only_adapter_weights() -> None:
    model, tok = adapted()
    before = weights(model)
    examples = [
        ([{"role": "user", "content": "1+1?"}], "2"),
        ([{"role": "user", "content": "x"}], "y"),
    ]
    train_sft(model, tok, examples, SFTConfig(steps=2, batch_size=2, warmup_steps=0, lr=1e-2))
    after = weights(model)
    moved = {n for n in before if not torch.equal(before[n], after[n])}
    assert moved and all("lora_" in n for n in moved)
    assert any("lora_B" in n for n in moved)  # B starts at zero: the update is no longer zero


def test_saved_model_is_merged_plain_and_computes_what_the_adapted_one_does(
    tmp_path: Path,
) -> None:
    model, tok = adapted()
    with torch.no_grad():  # a non-zero update, as after training
        for n, p in model.named_parameters():
            if "lora_B" in n:
                p.normal_(0, 0.05)
    save_model(model, tmp_path / "m", LoraFields(lora_rank=4))
    tok.save_pretrained(tmp_path / "m")
    state = json.dumps(sorted(merged_copy(model).state_dict()))
    assert "lora_" not in state and "base_layer" not in state
    loaded, _ = load_pretrained(str(tmp_path / "m"), device="cpu", dtype=torch.float32)
    ids = torch.tensor([[5, 6, 7, 8, 9]])
    with torch.no_grad():
        want, got = model(input_ids=ids).logits, loaded(input_ids=ids).logits
    torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)
    assert (tmp_path / "m" / ADAPTER_FILE).is_file()
    assert json.loads((tmp_path / "m" / "lora.json").read_text())["lora_rank"] == 4


def config(**kw: object) -> LearnerConfig:
    return LearnerConfig.model_validate({**FAST, "lora_rank": 4, "lr": 1e-2, **kw})


def test_grpo_with_lora_changes_only_target_modules_and_resumes_its_adapter(
    tmp_path: Path,
) -> None:
    cfg = config(steps=2, save_every=1)
    start, _ = common.load_model("tiny", cfg, torch.device("cpu"))
    run = train(cfg, tmp_path / "run", env=digit_env())
    ckpt = run / "checkpoints" / "step-000002" / "policy"
    end, _ = common.load_model(str(ckpt), cfg, torch.device("cpu"))
    before, after = weights(start), weights(end)
    assert before.keys() == after.keys()  # a plain model: no adapter keys
    moved = {n for n in before if not torch.equal(before[n], after[n])}
    assert moved and all(any(t in n for t in TARGETS) for n in moved)
    saved = torch.load(ckpt / ADAPTER_FILE, weights_only=True)
    # resuming loads the adapter over the base, not over the merged weights
    model, _ = common.load_policy(cfg, common.start_run(cfg, run), ckpt.parent)
    for name, tensor in saved.items():
        assert torch.equal(dict(model.named_parameters())[name].detach(), tensor)
    train(config(steps=3, save_every=1), run, env=digit_env())
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2, 3]


def test_resuming_a_full_run_with_lora_on_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    train(LearnerConfig.model_validate({**FAST, "steps": 1}), run, env=digit_env())
    with pytest.raises(RlvrError, match="no LoRA adapter"):
        train(config(steps=2), run, env=digit_env())


def test_cli_sft_with_lora_writes_a_model_rlvr_eval_loads(tmp_path: Path) -> None:
    out = tmp_path / "sft"
    argv = ["sft", "--env", "math", "--model", "tiny", "--steps", "2", "--batch-size", "2"]
    argv += [
        "--n-tasks",
        "4",
        "--threads",
        "1",
        "--lora-rank",
        "2",
        "--lora-targets",
        "q_proj,v_proj",
    ]
    result = CliRunner().invoke(app, [*argv, "--out", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads((out / "sft.json").read_text())["config"]
    assert record["lora_rank"] == 2 and record["lora_targets"] == ["q_proj", "v_proj"]
    argv = ["eval", "--env", "math", "--model", str(out), "--n-tasks", "2", "-n", "1"]
    result = CliRunner().invoke(app, [*argv, "--max-new-tokens", "4", "--out", str(tmp_path / "e")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "e" / "summary.json").read_text())["n_tasks"] == 2


def test_ppo_with_lora_trains_the_value_head_and_only_policy_adapters(tmp_path: Path) -> None:
    from rlvr.learners.config import PPOConfig
    from rlvr.learners.ppo import train as train_ppo

    cfg = PPOConfig.model_validate({**FAST, "algo": "ppo", "lora_rank": 4, "lr": 1e-2, "steps": 2})
    run = train_ppo(cfg, tmp_path / "ppo", env=digit_env())
    rows = [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2] and all(r["grad_norm"] > 0 for r in rows)
    ckpt = run / "checkpoints" / "step-000002"
    state = torch.load(ckpt / "trainer.pt", weights_only=False)
    assert state["value_head"]["head.weight"].abs().sum() > 0
    start, _ = common.load_model("tiny", cfg, torch.device("cpu"))
    end, _ = common.load_model(str(ckpt / "policy"), cfg, torch.device("cpu"))
    before, after = weights(start), weights(end)
    moved = {n for n in before if not torch.equal(before[n], after[n])}
    assert moved and all(any(t in n for t in TARGETS) for n in moved)
