"""Build datasets/python/tasks.jsonl from tasks.toml (run from anywhere).

    python datasets/python/build.py

Each task in tasks.toml has a prompt with the signature, a reference solution (the whole
solution.py), public tests (shown in the prompt) and hidden tests (never shown), both for pytest;
the `from solution import <entry_point>` line is added here. tests/test_code_grader.py checks in
the real sandbox that every reference passes.
"""

from __future__ import annotations

import ast
import json
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent


def count_tests(source: str) -> int:
    tree = ast.parse(source)
    return sum(isinstance(n, ast.FunctionDef) and n.name.startswith("test_") for n in tree.body)


def test_file(entry: str, body: str) -> str:
    """`import pytest` (when used) first, then the import of the answer, then the tests."""
    header = f"from solution import {entry}\n\n"
    if body.startswith("import pytest\n"):
        return "import pytest\n" + header + body[len("import pytest\n") :].lstrip()
    return header + body


def task_line(t: dict[str, str]) -> dict:
    public = test_file(t["entry_point"], t["public"])
    hidden = test_file(t["entry_point"], t["hidden"])
    return {
        "id": f"python/{t['id']}",
        "prompt": t["prompt"],
        "reference": t["reference"],
        "public_tests": public,
        "hidden_tests": hidden,
        "entry_point": t["entry_point"],
        "meta": {"n_public": count_tests(public), "n_hidden": count_tests(hidden)},
    }


def main() -> None:
    tasks = tomllib.loads((HERE / "tasks.toml").read_text(encoding="utf-8"))["task"]
    out = HERE / "tasks.jsonl"
    with out.open("w", encoding="utf-8") as fh:
        for t in tasks:
            fh.write(json.dumps(task_line(t)) + "\n")
    print(f"wrote {len(tasks)} tasks to {out}")


if __name__ == "__main__":
    main()
