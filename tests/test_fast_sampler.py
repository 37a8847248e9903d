"""The static-cache sampler (the GPU fast path, run eagerly on the CPU) equals the plain one."""

from __future__ import annotations

import pytest
import torch

from rlvr.errors import PolicyError
from rlvr.policies.base import SamplingConfig
from rlvr.policies.hf import HFPolicy, _LogprobRecorder
from rlvr.policies.static_cache import STATIC_CACHE_SAFE, static_cache_default
from rlvr.tiny import build_tiny

PROMPTS = [
    [{"role": "user", "content": "What is 2 + 3?"}],
    [{"role": "user", "content": "What is 17 - 9, in words please?"}],
    "x",
]


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def policies() -> tuple[HFPolicy, HFPolicy]:
    model, tokenizer = build_tiny(seed=0)
    plain = HFPolicy(model, tokenizer, threads=1, static_cache=False)
    fast = HFPolicy(model, tokenizer, threads=1, static_cache=True)
    return plain, fast


def test_static_cache_is_off_on_cpu_by_default() -> None:
    model, tokenizer = build_tiny(seed=0)
    assert HFPolicy(model, tokenizer).static_cache is False


def test_static_cache_is_on_by_default_only_on_cuda_with_a_transformers_that_can_hold_bf16() -> (
    None
):
    assert static_cache_default("cpu") is False
    assert static_cache_default("cuda") is STATIC_CACHE_SAFE


def test_static_cache_under_bf16_autocast_samples_or_names_the_upgrade(
    policies: tuple[HFPolicy, HFPolicy],
) -> None:
    """GRPO's bf16 path: rotary embeddings leave keys fp32 while values are bf16, which
    transformers before 5.24 cannot store in one static cache (an H200 run failed there)."""
    _, fast = policies
    sampling = SamplingConfig(temperature=1.0, max_new_tokens=12, seed=3)
    with torch.autocast("cpu", dtype=torch.bfloat16), torch.no_grad():
        if not STATIC_CACHE_SAFE:
            with pytest.raises(PolicyError, match="upgrade transformers to 5.24"):
                fast.sample(PROMPTS, 2, sampling)
            return
        groups = fast.sample(PROMPTS, 2, sampling)
    samples = [s for g in groups for s in g]
    assert len(samples) == 2 * len(PROMPTS)
    for s in samples:
        assert len(s.token_ids or []) == len(s.logprobs or []) > 0
        assert all(lp <= 0 for lp in s.logprobs or [])


def test_static_cache_sampler_gives_the_plain_greedy_tokens_and_log_probs(
    policies: tuple[HFPolicy, HFPolicy],
) -> None:
    plain, fast = policies
    greedy = SamplingConfig(temperature=0.0, max_new_tokens=24)
    want = [s for g in plain.sample(PROMPTS, 2, greedy) for s in g]
    got = [s for g in fast.sample(PROMPTS, 2, greedy) for s in g]
    assert fast._batch(PROMPTS)[0].shape[1] % HFPolicy.PAD_MULTIPLE == 0
    for a, b in zip(want, got, strict=True):
        assert b.token_ids == a.token_ids
        assert b.prompt_token_ids == a.prompt_token_ids
        assert b.finish_reason == a.finish_reason
        assert torch.allclose(torch.tensor(b.logprobs), torch.tensor(a.logprobs), atol=1e-4)


def test_the_static_cache_is_reused_and_reset_between_calls(
    policies: tuple[HFPolicy, HFPolicy],
) -> None:
    plain, fast = policies
    greedy = SamplingConfig(temperature=0.0, max_new_tokens=16)
    other = ["What is 4 + 4?", "Name a prime."]
    fast.sample(["What is 2 + 2?", "Name a colour."], 1, greedy)
    first = fast._kv
    got = fast.sample(other, 1, greedy)  # same rows and bucket: the same cache, reset
    assert fast._kv is not None and first is not None and fast._kv[1] is first[1]
    want = plain.sample(other, 1, greedy)
    assert [g[0].token_ids for g in got] == [g[0].token_ids for g in want]
    fast.sample(other, 3, greedy)  # another shape: a new cache replaces the old
    assert fast._kv[0] != first[0]


def test_static_cache_sampler_stops_at_eos_and_stop_strings(
    policies: tuple[HFPolicy, HFPolicy],
) -> None:
    _, fast = policies
    stops = list("aeiou")
    sampling = SamplingConfig(max_new_tokens=40, seed=5, stop=stops)
    samples = [s for g in fast.sample(PROMPTS, 8, sampling) for s in g]
    assert any(s.finish_reason == "stop" for s in samples)
    for s in samples:
        assert len(s.token_ids or []) == len(s.logprobs or [])
        assert not any(c in stops for c in s.text[:-1]), s.text
        assert all(lp <= 0 for lp in s.logprobs or [])


def test_recorded_log_probs_are_the_log_softmax_of_the_processed_scores() -> None:
    gen = torch.Generator().manual_seed(0)
    rec = _LogprobRecorder(prompt_len=2)
    prompt = torch.tensor([[5, 6], [7, 8]])
    scores = [torch.randn(2, 30, generator=gen) for _ in range(3)]
    tokens = torch.tensor([[1, 2, 3], [4, 5, 6]])
    for step, sc in enumerate(scores):
        rec(torch.cat([prompt, tokens[:, :step]], 1), sc)
    got = rec.finish(torch.cat([prompt, tokens], 1))
    want = torch.stack(
        [
            sc.log_softmax(-1).gather(-1, tokens[:, i : i + 1]).squeeze(-1)
            for i, sc in enumerate(scores)
        ],
        dim=1,
    )
    assert torch.allclose(got, want, atol=1e-6)


def test_finish_positions_take_the_first_eos_or_the_earlier_stop_string() -> None:
    from rlvr.policies.hf import finish_positions

    generated = torch.tensor([[5, 1, 1, 1], [5, 6, 7, 8], [5, 6, 1, 0], [1, 0, 0, 0]])
    assert finish_positions(generated, [1], None).tolist() == [1, -1, 2, 0]
    stopped = torch.tensor([-1, 2, 0, 3])
    assert finish_positions(generated, [1], stopped).tolist() == [1, 2, 0, 0]
    assert finish_positions(generated[:, :0], [1], None).tolist() == [-1, -1, -1, -1]


@pytest.mark.parametrize("tied", [True, False])
def test_bf16_linear_copy_computes_what_the_fp32_model_computes_under_autocast(tied: bool) -> None:
    from transformers import Qwen2Config, Qwen2ForCausalLM

    from rlvr.learners.common import frozen_clone

    torch.manual_seed(0)
    cfg = Qwen2Config(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        tie_word_embeddings=tied,
    )
    model = Qwen2ForCausalLM(cfg).eval()
    copy = frozen_clone(model, bf16_linear=True)
    assert copy.model.layers[0].mlp.up_proj.weight.dtype == torch.bfloat16
    assert copy.model.norm.weight.dtype == torch.float32
    assert copy.model.embed_tokens.weight.dtype == torch.float32
    assert (copy.lm_head.weight.dtype == torch.float32) == tied
    ids = torch.randint(0, 64, (3, 9))
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        want, got = model(input_ids=ids).logits, copy(input_ids=ids).logits
    assert torch.equal(got, want)
    with torch.no_grad():  # refreshing converts the trained fp32 weights on the way in
        model.model.layers[0].mlp.up_proj.weight.add_(1.0)
    copy.load_state_dict(model.state_dict())
    diff = (
        copy.model.layers[0].mlp.up_proj.weight.float() - model.model.layers[0].mlp.up_proj.weight
    )
    assert diff.abs().max() < 1e-2


def test_shadow_source_refreshes_the_sampling_copy_before_each_step() -> None:
    from rlvr.learners.common import frozen_clone
    from rlvr.learners.groups import ShadowSource, StepGroups

    model, _ = build_tiny(seed=0)
    copy = frozen_clone(model, bf16_linear=True)
    seen: list[float] = []

    class Live:  # records what the copy holds when sampling starts
        def collect(self, step: int) -> StepGroups:
            seen.append(float(copy.lm_head.weight.float().sum()))
            return StepGroups([], [])

        def state(self) -> dict[str, int]:
            return {"pos": 3}

    source = ShadowSource(Live(), model, copy)  # type: ignore[arg-type]
    with torch.no_grad():
        model.lm_head.weight.add_(0.5)
    source.collect(1)
    assert abs(seen[0] - float(model.lm_head.weight.sum())) < 1e-2 * model.lm_head.weight.numel()
    assert source.state() == {"pos": 3}
