"""The embedded tiny model: built offline, deterministic, saved and reloaded, and trainable."""

from __future__ import annotations

import string

import pytest
import torch

from rlvr.policies.hf import load_pretrained, torch_threads
from rlvr.sft import SFTConfig, completion_loss, encode_example, train_sft
from rlvr.tiny import EOS, build_tiny, build_tokenizer, load_tokenizer, tiny_dir


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def test_tokenizer_round_trips_printable_ascii_character_by_character() -> None:
    tok = build_tokenizer()
    text = string.printable[:95] + "\n\tWhat is 2 + 9? \\boxed{11}"
    ids = tok(text, add_special_tokens=False)["input_ids"]
    assert len(ids) == len(text)
    assert tok.decode(ids) == text
    assert tok.decode(tok("é")["input_ids"]) == "<unk>"  # outside the vocabulary, not dropped


def test_chat_template_keeps_user_turns_and_drops_the_system_prompt() -> None:
    tok = build_tokenizer()
    messages = [
        {"role": "system", "content": "long preamble"},
        {"role": "user", "content": "What is 2 + 9?"},
    ]
    text = tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    assert text == "Q: What is 2 + 9?\nA: "
    turn = [*messages[1:], {"role": "assistant", "content": "11"}]
    assert tok.apply_chat_template(turn, tokenize=False) == f"Q: What is 2 + 9?\nA: 11{EOS}\n"


def test_build_is_deterministic_per_seed_and_small() -> None:
    a, _ = build_tiny(seed=0)
    b, _ = build_tiny(seed=0)
    c, _ = build_tiny(seed=1)
    sa, sb, sc = a.state_dict(), b.state_dict(), c.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert not all(torch.equal(sa[k], sc[k]) for k in sa)
    assert 1_000_000 <= sum(p.numel() for p in a.parameters()) <= 3_000_000


def test_saved_folder_is_byte_identical_across_builds_and_reloads(tmp_path) -> None:
    first = tiny_dir(cache_dir=tmp_path / "one")
    second = tiny_dir(cache_dir=tmp_path / "two")
    assert first.name == second.name  # the cache key names the recipe, not the location
    weights = "model.safetensors"
    assert (first / weights).read_bytes() == (second / weights).read_bytes()
    assert tiny_dir(cache_dir=tmp_path / "one") == first  # second call reuses the cache
    model, tok = load_pretrained(str(first), device="cpu")
    fresh, _ = build_tiny(seed=0)
    assert all(torch.equal(v, fresh.state_dict()[k]) for k, v in model.state_dict().items())
    assert tok.decode(tok("a b  c")["input_ids"]) == "a b  c"


def test_auto_tokenizer_loads_the_same_tokenizer(tmp_path) -> None:
    """The Llama-style config keeps the Auto loaders from swapping the tokenizer class."""
    from transformers import AutoTokenizer

    folder = tiny_dir(cache_dir=tmp_path)
    text = "Q: What is  2 + 9?\nA: "
    explicit = load_tokenizer(folder)(text)["input_ids"]
    assert AutoTokenizer.from_pretrained(str(folder))(text)["input_ids"] == explicit


def test_encode_example_masks_the_prompt_and_ends_with_eos() -> None:
    tok = build_tokenizer()
    prompt = [{"role": "user", "content": "What is 1 + 1?"}]
    ids, labels = encode_example(tok, prompt, "2", max_length=64)
    n_prompt = len("Q: What is 1 + 1?\nA: ")
    assert labels[:n_prompt] == [-100] * n_prompt
    assert labels[n_prompt:] == ids[n_prompt:] == [tok.convert_tokens_to_ids("2"), tok.eos_token_id]


def test_sft_lowers_the_completion_loss_and_moves_parameters() -> None:
    model, tok = build_tiny(seed=0)
    before = {k: v.clone() for k, v in model.state_dict().items()}
    examples = [
        ([{"role": "user", "content": f"What is {a} + {b}?"}], f"{a} + {b} = {a + b}.")
        for a in range(3)
        for b in range(3)
    ]
    config = SFTConfig(steps=25, batch_size=9, lr=3e-3, warmup_steps=5, seed=0)
    encoded = [encode_example(tok, p, c, 64) for p, c in examples]

    def loss_now() -> float:
        from rlvr.sft import _collate

        ids, labels, mask = _collate(encoded, tok.pad_token_id)
        with torch.no_grad():
            return float(completion_loss(model, ids, labels, mask))

    start = loss_now()
    with torch_threads(1):
        result = train_sft(model, tok, examples, config)
    assert result.steps == 25 and result.n_examples == 9
    assert loss_now() < 0.5 * start
    assert result.last_loss < result.first_loss
    assert any(not torch.equal(v, before[k]) for k, v in model.state_dict().items())


def test_cli_sft_writes_a_checkpoint_usable_as_a_model(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    from rlvr.cli import app
    from rlvr.models import make_policy
    from rlvr.policies.hf import HFPolicy

    out = tmp_path / "ckpt"
    argv = ["sft", "--env", "math", "--model", "tiny", "--steps", "4", "--batch-size", "4"]
    argv += ["--difficulty", "easy", "--n-tasks", "6", "--eval-g", "2", "--out", str(out)]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout.strip().splitlines()[-1])
    assert record["steps"] == 4 and record["n_examples"] == 6
    assert record["eval"]["tasks"] == 6 and record["eval"]["g"] == 2
    saved = json.loads((out / "sft.json").read_text())
    assert saved["env"] == "math" and len(saved["losses"]) == 4
    assert isinstance(make_policy(str(out), device="cpu", threads=1), HFPolicy)
