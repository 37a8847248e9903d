"""SandboxSpec: the `[sandbox]` table of a code environment's env.toml.

One pydantic model holds what the sandbox needs to run a stack's tests: the image, where the
answer and the tests go in the workspace, the test command, the report adapter and the limits.
Validation errors become one line each (file, field, problem, given value, fix).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from rlvr.errors import ManifestError
from rlvr.manifest import format_validation_error


class TestFiles(BaseModel):
    """Workspace-relative paths the task's public and hidden tests are written to."""

    model_config = ConfigDict(extra="forbid")
    __test__ = False

    public: str = "test_public.py"
    hidden: str = "test_hidden.py"


def _relative(value: str, field: str) -> str:
    p = PurePosixPath(value)
    if p.is_absolute() or ".." in p.parts or not value:
        raise ValueError(f"{field} must be a relative path inside the workspace, got {value!r}")
    return value


class SandboxSpec(BaseModel):
    """How to run one stack's tests in a Docker sandbox (the `[sandbox]` table of envs/README.md;
    what each setting defends against: sandbox/SECURITY.md)."""

    model_config = ConfigDict(extra="forbid")

    image: str = Field(description="Tag of the stack image, e.g. 'rlvr-python:bookworm'.")
    dockerfile: str = Field(default="Dockerfile", description="Relative to the env folder.")
    runner: Literal["command", "python-check", "episode"] = Field(
        default="command",
        description="'command' runs test_command; 'python-check' is the HumanEval harness; "
        "'episode' is a terminal episode's container (sandbox/runner/episode.py).",
    )
    answer_file: str = Field(default="solution.py", description="Where the answer is written.")
    test_files: TestFiles = Field(default_factory=TestFiles)
    files: dict[str, str] = Field(
        default_factory=dict, description="Extra files: workspace path -> env-folder path."
    )
    test_command: list[str] = Field(
        default_factory=list,
        description="argv of the tests; runs as the answer's uid, or as the judge's when "
        "answer_command is set.",
    )
    build_command: list[str] = Field(
        default_factory=list,
        description="argv run first as the judge's uid with every file (compile the answer and "
        "the tests; no answer code may run here); the test command then runs as the answer's "
        "uid, without access to the judge's workspace.",
    )
    answer_command: list[str] = Field(
        default_factory=list,
        description="argv of a server that runs the answer as its own uid with only the answer "
        "file; the test command is then the judge, talking to it over RLVR_RPC_FDS.",
    )
    nonce_stdin: bool = Field(
        default=False,
        description="Write the job's nonce on the test command's stdin (then close it); the "
        "stack's own main reads it before any answer code runs and signs its report lines.",
    )
    revoke: list[str] = Field(
        default_factory=list,
        description="Paths the judge makes unreadable and unrunnable as soon as the test "
        "command has started (a compiled test binary cannot then be re-run to list its tests).",
    )
    signature_file: str | None = Field(
        default=None,
        description="Where the task's stated signature (meta.signature, else the prompt's "
        "fenced block in the stack's language) is written for the build, which pins the "
        "answer's items to it; the judge's side only.",
    )
    env: dict[str, str] = Field(default_factory=dict, description="Extra environment variables.")
    workdir: str = Field(default=".", description="Run directory, relative to the workspace.")
    writable_workspace: bool = Field(
        default=False,
        description="plain jobs: the answer's uid may write the workspace (else read only).",
    )
    report: str = Field(default="pytest", description="Report adapter name or reference.")
    report_from: Literal["stdout", "file", "fd"] = "stdout"
    report_file: str | None = Field(default=None, description="Report path for report_from=file.")
    strict_asserts: bool = Field(
        default=False, description="Python: rewrite test asserts to strict comparisons."
    )
    timeout_s: float = Field(default=10.0, gt=0, le=600)
    memory_mb: int = Field(default=512, ge=32, le=65536)
    pids_limit: int = Field(default=128, ge=8, le=100000)
    cpus: float = Field(default=1.0, gt=0, le=64)
    tmpfs_mb: int = Field(default=256, ge=4, le=65536)
    output_limit_kb: int = Field(default=64, ge=1, le=65536)
    report_limit_kb: int = Field(default=1024, ge=1, le=65536)
    nofile: int = Field(default=256, ge=16, le=1048576)
    fsize_mb: int = Field(default=64, ge=1, le=65536)

    @field_validator("answer_file", "workdir")
    @classmethod
    def _rel(cls, v: str, info: Any) -> str:
        return v if v == "." else _relative(v, info.field_name)

    @field_validator("signature_file")
    @classmethod
    def _rel_signature(cls, v: str | None) -> str | None:
        return v if v is None else _relative(v, "signature_file")

    @field_validator("files")
    @classmethod
    def _rel_files(cls, v: dict[str, str]) -> dict[str, str]:
        for dest in v:
            _relative(dest, f"files[{dest!r}]")
        return v

    @model_validator(mode="after")
    def _consistent(self) -> SandboxSpec:
        if self.runner == "command" and not self.test_command:
            raise ValueError("test_command is required when runner = 'command'")
        if self.build_command and self.answer_command:
            raise ValueError("set build_command or answer_command, not both")

        if self.report_from == "file" and not self.report_file:
            raise ValueError("report_from = 'file' needs report_file (the path the tool writes)")
        for path in (self.test_files.public, self.test_files.hidden):
            _relative(path, "test_files")
        return self

    @property
    def limits_key(self) -> tuple:
        """Containers can be shared by specs with the same image and container limits."""
        return (
            self.image,
            self.memory_mb,
            self.pids_limit,
            self.cpus,
            self.tmpfs_mb,
            self.nofile,
            self.fsize_mb,
        )


def load_spec(data: dict[str, Any], env_dir: str | Path | None = None) -> SandboxSpec:
    """Validate a `[sandbox]` table; errors name the manifest file and the field."""
    where = f"{Path(env_dir) / 'env.toml'}" if env_dir else "[sandbox]"
    try:
        spec = SandboxSpec.model_validate(data)
    except ValidationError as e:
        raise ManifestError(format_validation_error(f"{where}: sandbox", e)) from None
    if env_dir is not None:
        for dest, src in spec.files.items():
            if not (Path(env_dir) / src).is_file():
                raise ManifestError(
                    f"{where}: sandbox.files[{dest!r}] points at {src!r}, which does not exist "
                    f"in {env_dir}",
                    "add the file to the environment folder or fix the path",
                )
    return spec
