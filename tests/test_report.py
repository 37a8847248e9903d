"""`rlvr report`: PNG curves and a self-contained HTML page from a run's metrics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rlvr.errors import RlvrError
from rlvr.report import read_metrics, summary, write_report


def fake_run(tmp_path: Path, rows: list[dict]) -> Path:
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"step": 9')
    (run / "config.json").write_text(json.dumps({"algo": "grpo", "beta": 0.0}))
    return run


def grpo_rows(n: int = 6) -> list[dict]:
    return [
        {
            "step": s,
            "reward_mean": 0.1 * s,
            "pass_rate": 0.1 * s,
            "kl": None,
            "approx_kl": 0.01,
            "entropy": 2.0 - 0.1 * s,
            "completion_len_mean": 20 + s,
            "completion_len_max": 32,
            "zero_variance_frac": 0.5,
            "masked_frac": 0.0,
            "trunc_rate": 0.1,
        }
        for s in range(1, n + 1)
    ]


def test_report_writes_pngs_and_embeds_them_in_html(tmp_path: Path) -> None:
    run = fake_run(tmp_path, grpo_rows())
    page = write_report(run)
    for name in ("reward", "kl", "length", "entropy", "zero_variance"):
        assert (run / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (run / "dpo_loss.png").exists()  # no DPO figures in a GRPO run
    text = page.read_text()
    assert text.count("data:image/png;base64,") == 5
    assert "DPO loss and pair accuracy" in text  # listed as empty, not drawn
    assert "&quot;algo&quot;: &quot;grpo&quot;" in text


def test_report_plots_the_flagged_share_per_kind(tmp_path: Path) -> None:
    rows = grpo_rows()
    for r in rows:
        r.update(flagged_frac=0.25, flagged_hardcoded=0.25)
    page = write_report(fake_run(tmp_path, rows))
    assert (page.parent / "hack_flags.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.read_text().count("data:image/png;base64,") == 6  # the five, and hack flags


def test_summary_compares_first_and_last_steps(tmp_path: Path) -> None:
    rows = read_metrics(fake_run(tmp_path, grpo_rows(10)))
    assert len(rows) == 10  # the torn last line is skipped
    got = summary(rows, window=2)
    assert got["reward_mean"]["first"] == pytest.approx(0.15)
    assert got["reward_mean"]["change"] == pytest.approx(0.8)
    assert "kl" not in got  # never measured (beta = 0)


def test_report_without_metrics_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(RlvrError, match="rlvr train --out"):
        write_report(tmp_path)


def test_cli_report(tmp_path: Path) -> None:
    from rlvr.cli import app

    run = fake_run(tmp_path, grpo_rows())
    result = CliRunner().invoke(app, ["report", str(run), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["report"].endswith("report.html")
    assert out["summary"]["reward_mean"]["last"] > out["summary"]["reward_mean"]["first"]
