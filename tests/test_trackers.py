"""`rlvr train --report-to`: metrics rows and sample tables reach TensorBoard, read back here."""

import json
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from rlvr.errors import RlvrError
from rlvr.trackers import RunLogger, check_report_to, flatten


def events(run_dir: Path) -> EventAccumulator:
    acc = EventAccumulator(str(run_dir / "tensorboard"), size_guidance={"scalars": 0})
    acc.Reload()
    return acc


def scalars(acc: EventAccumulator, tag: str) -> list[tuple[int, float]]:
    return [(e.step, round(e.value, 6)) for e in acc.Scalars(tag)]


GROUP = {
    "env": "math",
    "task_id": "math/add1-001",
    "step": 2,
    "samples": [{"task_id": "math/add1-001", "index": 0, "text": "so \\boxed{11}"}],
    "verdicts": [{"status": "scored", "reward": 1.0, "passed": True, "reason": "",
                  "flags": [{"kind": "early_exit", "evidence": "x"}]}],
}  # fmt: skip


def test_every_metrics_key_becomes_a_scalar_and_samples_a_table(tmp_path: Path) -> None:
    import rlvr

    logger = RunLogger(["tensorboard"], tmp_path, {"algo": "grpo"}, samples_every=2,
                       env=rlvr.load_env("math"))  # fmt: skip
    logger.log({"step": 1, "reward_mean": 0.25, "kl": 0.01, "eval": {"pass_at_1": 0.5}})
    (tmp_path / "groups.jsonl").write_text(json.dumps(GROUP) + "\n")
    logger.log({"step": 2, "reward_mean": 0.75, "kl": 0.02, "eval": {"pass_at_1": 0.625}})
    logger.close()
    acc = events(tmp_path)
    assert scalars(acc, "reward_mean") == [(1, 0.25), (2, 0.75)]
    assert scalars(acc, "eval/pass_at_1") == [(1, 0.5), (2, 0.625)]
    assert "step" not in acc.Tags()["scalars"]
    text = acc.Tensors("samples/text_summary")
    assert [t.step for t in text] == [2]
    table = text[0].tensor_proto.string_val[0].decode()
    assert "What is 2 + 9?" in table and "so \\boxed{11}" in table and "early_exit" in table


def test_flatten_keeps_numbers_only() -> None:
    row = {"step": 3, "loss": 1, "ok": True, "name": "x", "eval": {"a": 0.5, "b": {"c": 2}}}
    assert flatten(row) == {"loss": 1.0, "eval/a": 0.5, "eval/b/c": 2.0}


def test_unknown_or_missing_trackers_name_the_fix() -> None:
    assert check_report_to(["none"]) == []
    with pytest.raises(RlvrError) as e:
        check_report_to(["mlflow"])
    assert e.value.message == "--report-to 'mlflow' is not a tracker"
    for name in ("wandb", "trackio"):
        if find_spec(name) is None:
            with pytest.raises(RlvrError) as e:
                check_report_to([name])
            assert e.value.fix == f"pip install 'rlvr[{name}]' (or drop --report-to {name})"


def test_rlvr_train_report_to_tensorboard(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = [sys.executable, "-m", "rlvr.cli", "train", "--env", "math", "--model", "tiny",
            "--steps", "2", "--out", str(out), "--report-to", "tensorboard",
            "--samples-every", "1", "--set", "group_size=2", "--set", "prompts_per_step=1",
            "--set", "max_new_tokens=8", "--set", "threads=1"]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(x) for x in (out / "metrics.jsonl").read_text().splitlines()]
    acc = events(out)
    keys = {k for r in rows for k, v in flatten(r).items()}
    assert keys and keys <= set(acc.Tags()["scalars"])
    assert [s for s, _ in scalars(acc, "reward_mean")] == [1, 2]
    assert [t.step for t in acc.Tensors("samples/text_summary")] == [1, 2]
