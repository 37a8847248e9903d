"""tiny-code: a tokenizer and context that hold every stack's prompt and answer, built
offline and deterministically from the train split, and trainable with `rlvr sft`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rlvr.cli import app
from rlvr.discovery import discover
from rlvr.policies.hf import load_pretrained, load_tokenizer
from rlvr.registry import load_env
from rlvr.sft import reference_answer
from rlvr.tiny_code import CODE_MODEL_CONFIG, code_envs, tiny_code_dir, train_examples


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_code_dir(cache_dir=tmp_path_factory.mktemp("code"))


def test_build_is_deterministic_and_cached_by_recipe(folder: Path, tmp_path: Path) -> None:
    again = tiny_code_dir(cache_dir=tmp_path)
    assert again.name == folder.name  # the key names the recipe and data, not the place
    for name in ("tokenizer.json", "model.safetensors"):
        assert (again / name).read_bytes() == (folder / name).read_bytes()


def test_tokenizer_round_trips_code_and_any_text(folder: Path) -> None:
    tok = load_tokenizer(folder)
    text = 'fn main() {\n\tlet s = "héllo 中文";  // done\n}\n'
    assert tok.decode(tok(text, add_special_tokens=False)["input_ids"]) == text
    assert tok.unk_token_id not in tok(text)["input_ids"]  # byte level: nothing is unknown


def test_every_stack_prompt_and_answer_fits_the_context(folder: Path) -> None:
    tok = load_tokenizer(folder)
    limit = CODE_MODEL_CONFIG["max_position_embeddings"]
    names = [n for n in ("python", "javascript", "go", "rust", "humaneval") if n in discover()]
    for name in names:
        env = load_env(name)
        for task in env.tasks():
            prompt = tok.apply_chat_template(env.messages(task), add_generation_prompt=True)
            answer = tok(reference_answer(env, task), add_special_tokens=False)["input_ids"]
            assert len(prompt) + len(answer) + 1 < limit, (name, task.id)
    code = "def add(a, b):\n    return a + b\n" * 20
    assert len(tok(code)["input_ids"]) < len(code) / 2  # BPE, not one token per character


def test_only_train_split_tasks_shape_the_model() -> None:
    examples = train_examples(code_envs())
    assert examples and {env.name for env, _ in examples} >= {"python", "go"}
    for env, task in examples:
        assert task in env.tasks_in("train")


def test_reference_answers_are_fenced_for_fenced_graders() -> None:
    env = load_env("go-tests")  # a code grader that extracts the fenced block
    task = env.tasks()[0]
    answer = reference_answer(env, task)
    assert answer.startswith("```go\n") and answer.rstrip().endswith("```")
    assert env.grader.extract(answer).strip() == (task.reference or "").strip()
    math = load_env("math")
    assert reference_answer(math, math.tasks()[0]) == math.tasks()[0].reference


def test_cli_sft_on_a_code_stack_writes_a_loadable_model(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "sft"
    argv = ["sft", "--env", "python", "--model", str(folder), "--steps", "3", "--batch-size", "2"]
    result = CliRunner().invoke(app, [*argv, "--threads", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout.strip().splitlines()[-1])
    assert record["steps"] == 3 and record["n_examples"] == len(
        load_env("python").tasks_in("train")
    )
    model, tok = load_pretrained(str(out), device="cpu")
    assert model.config.max_position_embeddings == CODE_MODEL_CONFIG["max_position_embeddings"]
    assert len(tok) == model.config.vocab_size
