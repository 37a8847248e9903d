"""Per-stack translators of function tasks, found by stack name in the stack's own folder.

A translator is a Python file, `envs/<stack>/translator.py` (envs is not an import package, so
it is loaded by path), that turns a `FunctionTask` into that stack's prompt, answer stub, value
literals and driver. rlvr's core never names a stack: `load_translator("kotlin")` finds the
folder of the environment called `kotlin` on the registry's search path (built-in `envs/`,
`RLVR_ENV_PATH`, `--env-path`) and loads its translator. The contract (module-level names):

    STACK: str                       the stack's name ("go")
    LANGUAGES: list[str]             fence tags accepted in completions (["go", "golang"])
    SANDBOX: dict                    [sandbox] keys the driver needs: answer_file,
                                     test_command, env, writable_workspace, ...
    unsupported(task) -> str | None  why the task cannot be expressed in this stack
    entry_name(task) -> str          the function's name in this stack ("pairSum")
    type_name(t: FType) -> str       the stack's spelling of a type ("[]int")
    literal(t: FType, value) -> str  source literal of a canonical JSON value
    prompt(task) -> str              doc comment + signature, ready to complete
    stub(task) -> str                a whole answer file that compiles and fails every case
    driver(task) -> dict[str, str]   workspace path -> file: calls the answer with each case's
                                     arguments (never the expected values) and prints
                                     `@@RLVR-READY` / `@@RLVR-CASE` lines (rlvr.functions.judge)
    program(task, completion) -> str | None   the answer file from a completion (None: none)

Optional:

    reference_from_python(task, python_source) -> str | None
                                     the stack's whole answer file rendered from the task's
                                     Python reference (None: this one cannot be rendered). The
                                     function-task loader calls it for a task that has no stored
                                     reference for the stack, so a new stack's folder brings
                                     references for the generated sets (synth) with it. The
                                     synth set's Python stays in the subset listed in
                                     envs/README.md ("Synth references from a stack folder");
                                     HumanEval's does not (90 of its 157 references use more),
                                     and it arrives too: `rlvr.functions.pysubset.outside(src)`
                                     names what a source uses beyond the subset, so a renderer
                                     that only knows the subset returns None for those.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from pathlib import Path
from types import ModuleType

from rlvr.discovery import discover
from rlvr.errors import ManifestError

TRANSLATOR_FILE = "translator.py"
REQUIRED = (
    "STACK", "LANGUAGES", "SANDBOX", "unsupported", "entry_name", "type_name", "literal",
    "prompt", "stub", "driver", "program",
)  # fmt: skip
# optional: a renderer from the Python reference (see the docstring)
FROM_PYTHON = "reference_from_python"
_cache: dict[Path, ModuleType] = {}
_lock = threading.Lock()


def translator_path(stack: str) -> Path:
    """`translator.py` of the environment folder named `stack` (a path is taken as is)."""
    as_path = Path(stack)
    if as_path.suffix == ".py":
        return as_path.resolve()
    src = discover().get(stack)
    if src is None or src.folder is None:
        raise ManifestError(
            f"no stack folder named {stack!r} to take a function-task translator from",
            "add envs/<stack>/ with env.toml and translator.py, or put its parent folder on "
            "RLVR_ENV_PATH / --env-path",
        )
    path = src.folder / TRANSLATOR_FILE
    if not path.is_file():
        raise ManifestError(
            f"stack {stack!r} ({src.folder}) has no {TRANSLATOR_FILE}",
            "write one (see envs/README.md, 'A new stack gets function tasks')",
        )
    return path


def load_translator(stack: str) -> ModuleType:
    """The translator module of `stack` (a stack name or a path to a translator file)."""
    path = translator_path(stack)
    with _lock:
        if path in _cache:
            return _cache[path]
        tag = hashlib.sha1(str(path).encode()).hexdigest()[:10]
        spec = importlib.util.spec_from_file_location(f"rlvr_translator_{tag}", path)
        if spec is None or spec.loader is None:
            raise ManifestError(f"{path}: cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as e:
            raise ManifestError(f"{path}: importing the translator failed ({e!r})") from e
        missing = [name for name in REQUIRED if not hasattr(module, name)]
        if missing:
            raise ManifestError(
                f"{path}: translator lacks {missing}",
                "define every name of the contract in rlvr/functions/translator.py",
            )
        _cache[path] = module
        return module
