"""On-policy distillation in GRPO: a teacher's per-token log-probabilities of the student's own
samples become per-token advantages (minus the reverse KL), mixed with the verifiable reward."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from learner_env import FAST, digit_env

from rlvr.errors import RlvrError
from rlvr.learners.batch import TokenBatch
from rlvr.learners.config import LearnerConfig
from rlvr.learners.grpo import train
from rlvr.learners.teacher import distil_advantages


def config(**over: object) -> LearnerConfig:
    return LearnerConfig(**{**FAST, **over})  # type: ignore[arg-type]


def rows(run: Path) -> list[dict]:
    return [json.loads(x) for x in (run / "metrics.jsonl").read_text().splitlines() if x.strip()]


def test_the_advantage_is_the_reward_mix_minus_the_per_token_reverse_kl() -> None:
    old = torch.tensor([[-1.0, -2.0, -0.5], [-0.3, -0.2, 0.0]])
    teacher = torch.tensor([[-0.5, -3.0, -9.0], [-0.3, -1.2, -7.0]])
    mask = torch.tensor([[True, True, False], [True, True, False]])
    ids = torch.zeros((2, 4), dtype=torch.long)
    group = torch.tensor([1.0, -1.0])
    batch = TokenBatch(input_ids=ids, attention_mask=torch.ones_like(ids), completion_mask=mask,
                       old_logp=old, advantages=group, prompt_width=1)  # fmt: skip
    cfg = config(teacher="tiny-sft", teacher_weight=2.0, reward_weight=0.5)
    distil_advantages(batch, teacher, cfg)
    # reward 0.5 x (+1 | -1), minus 2 x (student - teacher) per token; padding stays 0
    expected = torch.tensor([[0.5 + 1.0, 0.5 - 2.0, 0.0], [-0.5 + 0.0, -0.5 - 2.0, 0.0]])
    assert torch.allclose(batch.advantages, expected)
    rkl = torch.tensor([[-0.5, 1.0, 0.0], [0.0, 1.0, 0.0]])
    assert torch.allclose(batch.per_token["reverse_kl"], rkl)


def test_pure_distillation_toward_itself_has_no_signal(tmp_path: Path) -> None:
    """The student as its own teacher: every token's reverse KL is 0 (up to the float noise
    between sampling and scoring), so with no reward term the surrogate loss is about 0."""
    cfg = config(steps=1, teacher="tiny", reward_weight=0.0)
    [row] = rows(train(cfg, tmp_path / "self", env=digit_env()))
    assert row["teacher_kl"] == pytest.approx(0.0, abs=1e-4)
    assert row["policy_loss"] == pytest.approx(0.0, abs=1e-4)


def test_a_teacher_trains_groups_whose_rewards_are_all_equal(tmp_path: Path) -> None:
    """Every group scores 1 (no reward variance, so GRPO alone has no gradient); the teacher's
    per-token signal still moves the student."""
    cfg = config(steps=1, save_every=1, teacher="tiny-sft", reward_weight=0.0)
    run = train(cfg, tmp_path / "const", env=digit_env(n=0, const=4))
    [row] = rows(run)
    assert row["zero_variance_frac"] == 1.0 and row["teacher_kl"] is not None
    assert row["grad_norm"] and row["grad_norm"] > 0


def test_a_teacher_with_another_tokenizer_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RlvrError, match="does not share the student's tokenizer"):
        train(config(steps=1, teacher="smollm2-135m"), tmp_path / "x", env=digit_env())


def test_ppo_refuses_a_teacher() -> None:
    from rlvr.learners.config import PPOConfig

    with pytest.raises(ValueError, match="grpo and rloo"):
        PPOConfig(**{**FAST, "teacher": "tiny-sft"})  # type: ignore[arg-type]


class _Completions:
    """An OpenAI-compatible completions endpoint on loopback that echoes the prompt's
    log-probabilities under a local model, as vLLM does (`echo`, `logprobs`, `max_tokens` 0)."""

    def __init__(self, model_spec: str, drop: int = 0) -> None:
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        from rlvr.models import resolve_model
        from rlvr.policies.hf import load_pretrained

        model, _ = load_pretrained(resolve_model(model_spec), device="cpu", dtype=torch.float32)

        def logprobs(ids: list[int]) -> list[float | None]:
            with torch.no_grad():
                logits = model(torch.tensor([ids])).logits[0].float().log_softmax(-1)
            got = [logits[k - 1, ids[k]].item() for k in range(1, len(ids))]
            return [None, *got][: len(ids) - drop]

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                self._send({"object": "list", "data": [{"id": model_spec}]})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                assert body["echo"] is True and body["max_tokens"] == 0
                lps = logprobs(body["prompt"])
                self._send({"choices": [{"text": "", "logprobs": {"token_logprobs": lps}}]})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_served_teacher_scores_like_the_same_model_loaded_here() -> None:
    from rlvr.learners.batch import from_samples
    from rlvr.learners.common import frozen_copy
    from rlvr.learners.teacher import ServedTeacher, teacher_scores
    from rlvr.models import resolve_model
    from rlvr.policies.hf import load_tokenizer
    from rlvr.types import Sample

    tok = load_tokenizer(resolve_model("tiny"))
    rows = [("Q: 2 + 3?\nA: ", "5"), ("Q: name a colour\nA: ", "red and blue")]
    samples = [Sample(task_id="t", index=i, text=c, prompt_token_ids=tok(p)["input_ids"],
                      token_ids=tok(c)["input_ids"]) for i, (p, c) in enumerate(rows)]  # fmt: skip
    batch = from_samples(samples, [0.0, 0.0], tok.pad_token_id)
    cfg = config(teacher="tiny-sft", temperature=1.0)
    local = teacher_scores(frozen_copy("tiny-sft", cfg, torch.device("cpu")), batch, cfg)
    server = _Completions("tiny-sft")
    try:
        served = teacher_scores(ServedTeacher(server.url), batch, cfg)
    finally:
        server.close()
    mask = batch.completion_mask
    assert torch.allclose(served[mask], local[mask], atol=1e-4)
    short = _Completions("tiny-sft", drop=1)  # a server whose tokenizer is not the student's
    try:
        with pytest.raises(RlvrError, match="does not share the student's tokenizer"):
            ServedTeacher(short.url).score(batch)
    finally:
        short.close()
