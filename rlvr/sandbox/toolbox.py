"""The offline test toolbox: what Terminal-Bench tests download at verify time, brought along.

A typical Harbor test.sh runs `apt-get install curl`, pipes astral.sh's uv installer to sh,
then `uvx -p 3.13 -w pytest==8.4.1 -w pytest-json-ctrf==0.3.5 pytest ...`. Offline, every one
of those steps fails. The toolbox is a host folder mounted read-only at /opt/rlvr-toolbox in
each Harbor-mode container and put first on the verifier's PATH: the real `uv` binary, wheels
of the test runners those scripts pin, and small shims (sandbox/toolbox/bin) that answer the
installer's address from the toolbox, skip `apt-get update`, and let `uvx -p X` use the image's
own python3 when X cannot be downloaded (saying so on stderr). Anything else a test fetches
still fails, and the task fails with that reason in the verifier's output.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from rlvr.errors import SandboxError
from rlvr.sandbox.docker import sandbox_dir

MOUNT = "/opt/rlvr-toolbox"
UV_VERSION = "0.9.5"
WHEELS = (
    "pytest==8.4.1", "pytest-json-ctrf==0.3.5", "pytest==8.3.5", "pytest==8.4.2",
    "pytest-json-ctrf==0.3.6",
)  # fmt: skip
"""Test runners Terminal-Bench 2's test.sh files pin (and their dependencies, pure Python)."""
VERIFIER_ENV = {
    "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": f"{MOUNT}/wheels", "PIP_BREAK_SYSTEM_PACKAGES": "1",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONSAFEPATH": "1", "TEST_DIR": "/tests",
    "DEBIAN_FRONTEND": "noninteractive",
}  # fmt: skip
"""Set for the verifier: pip from the toolbox's wheels; no workspace module shadows what the
tests import through `python -m` (PYTHONSAFEPATH); TEST_DIR as Harbor's migrated tasks read."""


def toolbox_dir() -> Path:
    """$RLVR_TOOLBOX, else ~/.cache/rlvr-toolbox (kept apart from the model cache)."""
    return Path(os.environ.get("RLVR_TOOLBOX") or Path.home() / ".cache" / "rlvr-toolbox")


def ready(folder: Path | None = None) -> bool:
    folder = folder or toolbox_dir()
    return (
        (folder / "uv" / "uv").is_file()
        and (folder / "bin" / "uvx").is_file()
        and any((folder / "wheels").glob("pytest-*.whl"))
    )


def require() -> Path:
    folder = toolbox_dir()
    if not ready(folder):
        raise SandboxError(f"the offline test toolbox is not built (looked in {folder})",
                           "run `rlvr sandbox toolbox` once (it downloads uv and the test "
                           "runners' wheels from PyPI)")  # fmt: skip
    return folder


def build(force: bool = False, log=print) -> Path:  # type: ignore[no-untyped-def]
    """Fetch uv and the wheels from the package index into the toolbox folder (once)."""
    folder = toolbox_dir()
    shims = sandbox_dir() / "toolbox" / "bin"
    if ready(folder) and not force:
        _copy_shims(shims, folder)  # shims follow the checkout; the downloads are kept
        log(f"toolbox ready at {folder}")
        return folder
    with tempfile.TemporaryDirectory(prefix="rlvr-toolbox-") as tmp:
        wheels = Path(tmp) / "wheels"
        pip = [sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:",
               "--dest", str(wheels)]  # fmt: skip
        for spec in WHEELS:  # one at a time: two pins of pytest do not resolve together
            _run([*pip, spec], log)
        _run([*pip, "--no-deps", f"uv=={UV_VERSION}"], log)
        uv_wheel = next(wheels.glob("uv-*.whl"))
        staging = Path(tmp) / "box"
        (staging / "uv").mkdir(parents=True)
        with zipfile.ZipFile(uv_wheel) as z:
            for member in z.namelist():
                if member.endswith("/scripts/uv"):
                    (staging / "uv" / "uv").write_bytes(z.read(member))
        (staging / "uv" / "uv").chmod(0o755)
        uv_wheel.unlink()
        shutil.copytree(wheels, staging / "wheels")
        _copy_shims(shims, staging)
        if folder.exists():
            shutil.rmtree(folder)
        folder.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(staging, folder, symlinks=True)
    for path in folder.rglob("*"):  # readable by every uid in the containers
        path.chmod(path.stat().st_mode | 0o555 if path.is_dir() or os.access(path, os.X_OK)
                   else path.stat().st_mode | 0o444)  # fmt: skip
    folder.chmod(0o755)
    log(f"toolbox built at {folder}")
    return folder


def _copy_shims(shims: Path, folder: Path) -> None:
    (folder / "bin").mkdir(parents=True, exist_ok=True)
    for shim in shims.iterdir():
        shutil.copy2(shim, folder / "bin" / shim.name)


def _run(argv: list[str], log) -> None:  # type: ignore[no-untyped-def]
    proc = subprocess.run(argv, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SandboxError(f"{' '.join(argv[3:])} failed: {proc.stderr.strip()[-500:]}",
                           "check that the Python package index is reachable")  # fmt: skip
    log(" ".join(argv[-1:]) + " ok")
