"""Is latex2sympy2_extended (Math-Verify's LaTeX parser) worth a fallback behind rlvr's parser?

    python bench/math_parser_fallback.py

Reads every gold and every extracted final answer of graders/math/cases.jsonl and
math_verify_cases.jsonl after rlvr's normalisation, and counts: what rlvr's hand-written parser
cannot read, how much of that latex2sympy2_extended can, among those the accept cases (where a
fallback could turn a false negative into a pass), and the time per string of each parser.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "graders" / "math" / n for n in ("cases.jsonl", "math_verify_cases.jsonl")]


def main() -> None:
    from latex2sympy2_extended import latex2sympy

    from rlvr.graders.math.extract import extract_answers, gold_answer
    from rlvr.graders.math.normalize import normalize
    from rlvr.graders.math.parse import ParseError, parse

    texts: dict[str, str] = {}
    for path in FILES:
        for line in path.read_text().splitlines():
            case = json.loads(line)
            texts[normalize(gold_answer(case["gold"]))] = case["expect"]
            for cand in extract_answers(case["answer"]).candidates:
                if len(cand) < 1000:
                    texts.setdefault(normalize(cand), case["expect"])
    rlvr_fail, l2s_ok, l2s_fail = [], [], 0
    t_rlvr = t_l2s = 0.0
    for text, expect in texts.items():
        start = time.perf_counter()
        try:
            parse(text)
            ok = True
        except (ParseError, RecursionError):
            ok = False
        t_rlvr += time.perf_counter() - start
        start = time.perf_counter()
        try:
            latex2sympy(text)
            other = True
        except Exception:  # its parser raises many kinds
            other = False
        t_l2s += time.perf_counter() - start
        l2s_fail += not other
        if not ok:
            rlvr_fail.append(text)
            if other:
                l2s_ok.append((text, expect))
    n = len(texts)
    print(f"{n} distinct normalised strings (golds and final answers)")
    print(f"rlvr's parser reads {n - len(rlvr_fail)}; latex2sympy2_extended reads {n - l2s_fail}")
    print(f"rlvr cannot read {len(rlvr_fail)}; of those latex2sympy2_extended reads {len(l2s_ok)}")
    accept = [t for t, e in l2s_ok if e == "accept"]
    print(f"  of which in accept cases (a fallback could matter): {len(accept)}")
    for t in accept[:20]:
        print(f"    {t[:90]!r}")
    per = (1e6 * t_rlvr / n, 1e6 * t_l2s / n)
    print(f"time per string: rlvr {per[0]:.0f} us, latex2sympy2_extended {per[1]:.0f} us")


if __name__ == "__main__":
    main()
