"""A few GRPO steps on a Qwen2-0.5B-sized model with random weights, on one CUDA GPU, in bf16.

Run through bench/gpu_smoke.sh. Nothing is downloaded: the model is built from a config and the
tokenizer is rlvr's character tokenizer padded with filler tokens to Qwen2's vocabulary size, so
the output layer and its softmax cost what they cost for the real model. The reward is a stand-in
that splits a random model's answers about evenly (the parity of the answer's character codes),
so every group has reward variance and every step does a full update. Prints generation and
training tokens/s, seconds per step and peak GPU memory.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import torch

from rlvr.env import Environment
from rlvr.learners.config import LearnerConfig
from rlvr.learners.grpo import train
from rlvr.types import Task, Verdict

QWEN2_05B = {
    "hidden_size": 896,
    "intermediate_size": 4864,
    "num_hidden_layers": 24,
    "num_attention_heads": 14,
    "num_key_value_heads": 2,
    "max_position_embeddings": 4096,
    "rope_theta": 1_000_000.0,
    "rms_norm_eps": 1e-6,
    "tie_word_embeddings": True,
    "vocab_size": 151_936,
}


class ParityGrader:
    """Stand-in reward for a random model: 1 when the answer's character codes sum to even."""

    name = "parity"

    def extract(self, completion: str) -> str:
        return completion

    def grade_group(self, task: Task, answers: Sequence[str]) -> list[Verdict]:
        return [Verdict.score(float(sum(map(ord, a)) % 2 == 0), "parity") for a in answers]


def build_model(folder: Path, device: str = "cuda", shape: dict | None = None) -> None:
    """Random Qwen2-shaped weights (0.5B unless `shape` says otherwise) and a padded character
    tokenizer, saved to `folder`."""
    from tokenizers import Tokenizer, decoders, models
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    from rlvr.tiny import CHARS, CHAT_TEMPLATE, EOS, PAD, UNK

    shape = shape or QWEN2_05B
    base = [PAD, EOS, UNK, *CHARS]
    filler = [f"<x{i}>" for i in range(shape["vocab_size"] - len(base))]
    vocab = {t: i for i, t in enumerate(base + filler)}
    core = Tokenizer(models.BPE(vocab=vocab, merges=[], unk_token=UNK))
    core.decoder = decoders.Fuse()
    tok = PreTrainedTokenizerFast(
        tokenizer_object=core, pad_token=PAD, eos_token=EOS, unk_token=UNK
    )
    tok.chat_template = CHAT_TEMPLATE
    config = Qwen2Config(pad_token_id=0, eos_token_id=1, bos_token_id=None, **shape)
    with torch.device(device):  # initialise where it runs: much faster than on CPU
        model = Qwen2ForCausalLM(config)
    print(f"model: {sum(p.numel() for p in model.parameters()) / 1e6:.0f}M parameters")
    model.save_pretrained(folder)
    tok.save_pretrained(folder)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--g", type=int, default=8)
    ap.add_argument("--prompts", type=int, default=8)
    ap.add_argument("--max-new-tokens", type=int, default=256)
    ap.add_argument("--micro-batch", type=int, default=16)
    args = ap.parse_args()
    assert torch.cuda.is_available(), "no CUDA device: this smoke test needs a GPU"
    print(f"device: {torch.cuda.get_device_name(0)}, torch {torch.__version__}")

    tasks = [Task(id=f"t{i}", prompt=f"Write something about the number {i}.") for i in range(64)]
    env = Environment(name="parity", grader=ParityGrader(), load_tasks=lambda: tasks)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        build_model(Path(tmp) / "model")
        print(f"built in {time.perf_counter() - t0:.1f}s")
        cfg = LearnerConfig(
            env="parity",
            model=str(Path(tmp) / "model"),
            device="cuda",
            bf16=True,
            steps=args.steps,
            lr=1e-6,
            group_size=args.g,
            prompts_per_step=args.prompts,
            max_new_tokens=args.max_new_tokens,
            micro_batch_size=args.micro_batch,
            beta=0.04,
            save_every=0,
            loss_agg="token_mean",
        )
        torch.cuda.reset_peak_memory_stats()
        rows: list[dict] = []
        stamps = [time.perf_counter()]

        def on_row(row: dict) -> None:
            stamps.append(time.perf_counter())
            rows.append(row)
            answers = row["completion_len_mean"] * row["groups_sampled"] * args.g
            print(
                json.dumps(
                    {
                        "step": row["step"],
                        "s_per_step": round(stamps[-1] - stamps[-2], 2),
                        "gen_tokens_per_s": round(row["tokens_per_s"] or 0),
                        "train_tokens_per_s": round(answers / row["time_update"])
                        if row["time_update"]
                        else None,
                        "time_generate": round(row["time_generate"], 2),
                        "time_update": round(row["time_update"], 2),
                        "reward_mean": row["reward_mean"],
                        "kl": row["kl"],
                        "grad_norm": row["grad_norm"],
                        "peak_gib": round(torch.cuda.max_memory_allocated() / 2**30, 2),
                    }
                ),
                flush=True,
            )

        train(cfg, Path(tmp) / "run", env=env, on_row=on_row)
    print(
        f"peak GPU memory: {torch.cuda.max_memory_allocated() / 2**30:.2f} GiB "
        f"(reserved {torch.cuda.max_memory_reserved() / 2**30:.2f} GiB)"
    )


if __name__ == "__main__":
    main()
