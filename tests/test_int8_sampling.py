"""int8 sampling (`--int8`, rlvr/policies/int8.py): Linear weights become int8, the policy still
samples with its log-probs, an evaluation records and pins the choice, and non-local models
are refused with the fix. The speed is bench/sampler_cpu.py's (--int8), never asserted here."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.cli.sampling import open_policy
from rlvr.errors import RlvrError
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import HFPolicy
from rlvr.policies.int8 import quantize_int8
from rlvr.tiny import build_tiny, tiny_dir


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_every_linear_becomes_int8_and_the_logits_stay_close() -> None:
    model, tokenizer = build_tiny(seed=0)
    ids = tokenizer("What is 2 + 3?", return_tensors="pt").input_ids
    with torch.inference_mode():
        before = model(ids).logits
    n_linear = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    assert n_linear > 0
    quantize_int8(model)
    assert not any(type(m) is torch.nn.Linear for m in model.modules())
    dynamic = [m for m in model.modules() if "quantized.dynamic" in type(m).__module__]
    assert len(dynamic) == n_linear
    assert all(m.weight().dtype == torch.qint8 for m in dynamic)
    with torch.inference_mode():
        after = model(ids).logits
    assert after.shape == before.shape and not torch.equal(after, before)
    # rounding moves the logits a little, not to another distribution
    assert (after - before).abs().max() < 0.1 * before.abs().max()


def test_an_int8_policy_samples_tokens_with_their_log_probs() -> None:
    policy = HFPolicy.from_pretrained(str(tiny_dir()), device="cpu", threads=1, int8=True)
    groups = policy.sample(["x", "What is 2 + 3?"], 2, SamplingConfig(max_new_tokens=12))
    samples = [s for group in groups for s in group]
    assert len(samples) == 4
    for s in samples:
        assert s.token_ids and len(s.logprobs or []) == len(s.token_ids)
        assert all(lp <= 0 and math.isfinite(lp) for lp in s.logprobs or [])


def test_int8_is_refused_for_a_model_that_is_not_local() -> None:
    for spec in ("http://127.0.0.1:9/v1", "replay:/nonexistent.jsonl"):
        with pytest.raises(RlvrError, match="not a local model") as err:
            open_policy(spec, None, None, None, int8=True)
        assert "drop --int8" in str(err.value)


def test_eval_records_int8_and_a_resume_must_keep_it(tmp_path: Path) -> None:
    out = tmp_path / "eval"
    argv = ["eval", "--env", "math", "--model", "tiny", "--n-tasks", "3", "-n", "2"]
    argv += ["--max-new-tokens", "8", "--out", str(out)]
    first = CliRunner().invoke(app, [*argv, "--int8"])
    assert first.exit_code == 0, first.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["weights"] == "int8" and summary["n_tasks"] == 3
    assert json.loads((out / "eval.json").read_text())["weights"] == "int8"
    mixed = CliRunner().invoke(app, argv)  # the same folder with the model's own weights
    assert mixed.exit_code == 1 and "weights was 'int8'" in str(mixed.exception)
    plain = tmp_path / "plain"
    done = CliRunner().invoke(app, [*argv[:-1], str(plain)])
    assert done.exit_code == 0, done.output
    # a folder without --int8 pins nothing new, so folders from before the option resume
    assert "weights" not in json.loads((plain / "eval.json").read_text())
    assert json.loads((plain / "summary.json").read_text())["weights"] == "model"
