"""The warm starts a command needs, built with a bar per SFT run; the demo's two chains side
by side in processes build what they build in turn (one SFT step each: keys, data, weights)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from rlvr.cli.warm_starts import CHAINS, build_warm_starts
from rlvr.demo import STAGES
from rlvr.tiny import tiny_columns_sft_dir
from rlvr.tiny_agent import tiny_columns_agent_sft_dir


def _weights(folder: Path) -> str:
    return hashlib.sha256((folder / "model.safetensors").read_bytes()).hexdigest()


def _built(cache: Path) -> dict[str, str]:
    return {
        "math": _weights(tiny_columns_sft_dir(cache, steps=1)),
        "base": _weights(tiny_columns_sft_dir(cache, steps=1, to_strength=False)),
        "agent": _weights(tiny_columns_agent_sft_dir(cache, steps=1, base_steps=1)),
    }


def test_the_demos_chains_side_by_side_build_what_they_build_in_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    models = [stage.model for stage in STAGES]
    assert [CHAINS[m] for m in models] == [
        ("tiny-columns-sft",),
        ("tiny-columns-sft (800 steps)", "tiny-columns-agent-sft"),
    ]
    apart, in_turn = tmp_path / "apart", tmp_path / "in-turn"
    monkeypatch.setenv("RLVR_CACHE", str(apart))
    build_warm_starts(models, side_by_side=True, steps=1)
    monkeypatch.setenv("RLVR_CACHE", str(in_turn))
    build_warm_starts(models, side_by_side=False, steps=1)
    names = {p.name for p in apart.iterdir() if not p.name.startswith(".")}
    assert names == {p.name for p in in_turn.iterdir() if not p.name.startswith(".")}
    assert sum(n.startswith("tiny-columns-sft-") for n in names) == 2
    assert _built(apart) == _built(in_turn)  # nothing rebuilt: the same folders, same weights
    assert {p.name for p in apart.iterdir() if not p.name.startswith(".")} == names
    err = capsys.readouterr().err
    assert "tiny-columns-sft (800 steps), once" in err and "ready" in err


def test_a_model_with_nothing_to_build_draws_no_bar(capsys: pytest.CaptureFixture[str]) -> None:
    build_warm_starts(["tiny", "replay:answers.jsonl", "smollm2-135m"])
    assert capsys.readouterr().err == ""
