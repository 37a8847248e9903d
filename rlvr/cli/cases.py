"""`rlvr cases augment`: add hidden cases that kill the mutants a task's cases let through.

    rlvr cases augment humaneval                  # report only: what would be added
    rlvr cases augment humaneval --write          # append them to the case file

Prints one JSON line per task (inputs tried, inputs with a value, mutants, survivors of the old
cases, cases added, inputs another stack's reference disagreed on) and a summary line; progress
goes to stderr. Needs Docker and every stack image of the case set.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated

import typer

from rlvr.audit.augment.augment import Options, augment_tasks
from rlvr.audit.augment.sets import case_set, load_stacks, runner, stack_references
from rlvr.cli.common import EnvPathOpt, emit, stderr, use_env_paths
from rlvr.functions.task import read_function_tasks, write_function_tasks

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
    opts = Options(seed=seed, inputs=inputs, mutants=mutants, wide=wide, skip=cases.skip)
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
