"""`rlvr cases augment`: add hidden cases that kill the mutants a task's cases let through.

    rlvr cases augment humaneval                  # report only: what would be added
    rlvr cases augment humaneval --write          # append them to the case file
    rlvr cases augment humaneval --kill wrong.jsonl --try inputs.jsonl --write
                                                  # also kill these wrong answers

`--kill FILE`: JSON lines {"task_id", "answer"} (optional "name"; "env" other than the case
set's python env is skipped), wrong answers known to pass the old cases: each is a mutant to
kill, and a task already augmented gets another round for them. `--try FILE`: JSON lines
{"task_id", "args"}, argument lists to value and try besides the mutated ones.

Prints one JSON line per task (inputs tried, inputs with a value, mutants, survivors of the old
cases, cases added, inputs another stack's reference disagreed on) and a summary line; progress
goes to stderr. Needs Docker and every stack image of the case set.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated, Any

import typer

from rlvr.audit.augment.augment import Options, augment_tasks
from rlvr.audit.augment.sets import case_set, load_stacks, runner, stack_references
from rlvr.cli.common import EnvPathOpt, emit, read_jsonl, stderr, use_env_paths
from rlvr.errors import RlvrError
from rlvr.functions.task import read_function_tasks, write_function_tasks
from rlvr.graders.code.extract import function_program

app = typer.Typer(help="Strengthen the hidden cases of function tasks.", no_args_is_help=True)


@app.command("augment")
def augment(
    env: Annotated[str, typer.Argument(help="An environment of the case set, e.g. humaneval.")],
    write: Annotated[
        bool, typer.Option("--write", help="Append the new cases to the case file.")
    ] = False,
    task_ids: Annotated[
        list[str] | None, typer.Option("--task", help="Only this task id (repeatable).")
    ] = None,
    inputs: Annotated[int, typer.Option("--inputs", min=1, help="New inputs per task.")] = 96,
    mutants: Annotated[int, typer.Option("--mutants", min=1, help="Mutants per task.")] = 40,
    seed: Annotated[int, typer.Option("--seed", help="Seed of inputs and mutants.")] = 25,
    wide: Annotated[
        bool,
        typer.Option("--wide", help="Also keep inputs outside what a task's cases show."),
    ] = False,
    kill: Annotated[
        Path | None, typer.Option("--kill", help="JSONL of wrong answers to kill.")
    ] = None,
    try_file: Annotated[
        Path | None, typer.Option("--try", help="JSONL of argument lists to try.")
    ] = None,
    env_path: EnvPathOpt = None,
) -> None:
    """Mutate each task's arguments, value them with the Python reference in the sandbox, keep
    those every stack agrees on that kill surviving mutants (greedy set cover)."""
    use_env_paths(env_path)
    cases = case_set(env)
    all_tasks = read_function_tasks(cases.file)
    chosen = [t for t in all_tasks if not task_ids or t.id in task_ids]
    envs = load_stacks(cases)
    refs = stack_references(envs)
    by_id = {t.id: t for t in all_tasks}
    wrong: dict[str, list[tuple[str, str]]] = {}
    for n, row in _rows(kill, "answer", by_id, cases.envs.get("python")):
        t = by_id[row["task_id"]]
        program = function_program(t.prompts.get("python", ""), row["answer"], t.entry_point)
        name = str(row.get("name") or f"{kill.name if kill else 'kill'}:{n}")
        wrong.setdefault(t.id, []).append((name, program))
    given: dict[str, list[list[Any]]] = {}
    for _, row in _rows(try_file, "args", by_id, cases.envs.get("python")):
        given.setdefault(row["task_id"], []).append(list(row["args"]))
    opts = Options(
        seed=seed,
        inputs=inputs,
        mutants=mutants,
        wide=wide,
        skip=cases.skip,
        wrong=wrong,
        given=given,
    )
    done, results = augment_tasks(
        chosen, runner(envs), refs, opts, lambda m: stderr.print(m, highlight=False)
    )
    for r in results:
        emit(dataclasses.asdict(r))
    if write:
        new = {t.id: t for t in done}
        write_function_tasks(cases.file, [new.get(t.id, t) for t in all_tasks])
    emit(
        {
            "file": str(cases.file),
            "written": write,
            "tasks": len(results),
            "tasks_with_added_cases": sum(r.added > 0 for r in results),
            "cases_added": sum(r.added for r in results),
            "survivors": sum(r.survivors for r in results),
            "left_alive": sum(len(r.left) for r in results),
        }
    )


def _rows(
    path: Path | None, field: str, tasks: dict[str, Any], python_env: str | None
) -> list[tuple[int, dict[str, Any]]]:
    """(line number, row) of a --kill / --try file, each naming a known task and `field`."""
    if path is None:
        return []
    out = []
    for n, row in read_jsonl(path):  # the CLI's line reader: BOM, non-objects, bad UTF-8
        if isinstance(row, str):
            if row.endswith(": empty line"):
                continue
            raise RlvrError(f"{path}: {row}", "write one JSON object per line")
        row["task_id"] = row.get("task_id") or row.get("task")
        if row.get("env") not in (None, python_env):
            continue  # another stack's answer: mutants run in Python
        if row["task_id"] not in tasks or field not in row:
            raise RlvrError(
                f"{path}:{n}: needs a known task_id and {field!r} (got {row.get('task_id')!r})",
                f'write {{"task_id": "HumanEval/0", "{field}": ...}} per line',
            )
        out.append((n, row))
    return out
