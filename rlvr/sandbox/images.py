"""Build the sandbox images: the offline base, and each stack's image cached by content hash.

The base `rlvr-base:bookworm` comes from debootstrap (sandbox/base/bootstrap.sh) imported with
the Docker SDK, because no registry may be reachable. Stack images build `FROM ${BASE}` with
their env folder as context; the image carries `rlvr.content-hash` (context files, Dockerfile,
base image id, build args) and a build is skipped when the hash matches. The build context is
the folder that holds the Dockerfile: an environment whose `dockerfile` is `../go/Dockerfile`
(go-tests) names the stack folder's image, which is then one image with one hash for both.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from rlvr.errors import ManifestError, SandboxError
from rlvr.manifest import format_validation_error, read_manifest
from rlvr.sandbox.client import get_client
from rlvr.sandbox.docker import sandbox_dir
from rlvr.sandbox.hints import build_command
from rlvr.sandbox.spec import SandboxSpec

BASE_IMAGE = "rlvr-base:bookworm"
HASH_LABEL = "rlvr.content-hash"
Log = Callable[[str], None]


def base_image() -> str:
    """The BASE build arg: rlvr-base:bookworm, or RLVR_BASE_IMAGE (e.g. debian:bookworm-slim)."""
    return os.environ.get("RLVR_BASE_IMAGE", BASE_IMAGE)


def image_exists(tag: str) -> bool:
    client = get_client()  # first: it imports the SDK under a lock
    from docker.errors import ImageNotFound

    try:
        client.images.get(tag)
    except ImageNotFound:
        return False
    return True


def bootstrap_base(
    force: bool = False, mirror: str | None = None, on_log: Log | None = None
) -> bool:
    """Create rlvr-base:bookworm offline; False when it already existed (and not `force`)."""
    log = on_log or (lambda _line: None)
    client = get_client()
    if image_exists(BASE_IMAGE) and not force:
        log(f"{BASE_IMAGE} exists (use --force to rebuild)")
        return False
    if shutil.which("debootstrap") is None:
        raise SandboxError(
            "debootstrap is not installed, so the base image cannot be bootstrapped",
            "apt-get install debootstrap (or set RLVR_BASE_IMAGE=debian:bookworm-slim where a "
            "registry is reachable)",
        )
    if os.geteuid() != 0:
        raise SandboxError("bootstrapping the base image needs root (debootstrap)", "run as root")
    script = sandbox_dir() / "base" / "bootstrap.sh"
    root = Path(tempfile.mkdtemp(prefix="rlvr-bootstrap-", dir=os.environ.get("RLVR_BUILD_TMP")))
    try:
        argv = ["sh", str(script), str(root / "rootfs"), *([mirror] if mirror else [])]
        _stream(argv, log)
        log(f"importing {root / 'rootfs'} as {BASE_IMAGE}")
        tar = subprocess.Popen(
            ["tar", "--numeric-owner", "-C", str(root / "rootfs"), "-c", "."],
            stdout=subprocess.PIPE,
        )
        assert tar.stdout is not None
        repo, tag = BASE_IMAGE.split(":")
        client.api.import_image_from_data(
            tar.stdout, repository=repo, tag=tag,
            changes=[
                "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                "ENV LANG=C.UTF-8",
                'CMD ["/bin/sh"]',
                "LABEL rlvr.base=bookworm",
            ],
        )  # fmt: skip
        if tar.wait() != 0:
            raise SandboxError("tar of the bootstrapped root failed", "check free disk space")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    log(f"{BASE_IMAGE} ready")
    return True


def _stream(argv: list[str], log: Log) -> None:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    tail: list[str] = []
    for line in proc.stdout:
        log(line.rstrip())
        tail = [*tail[-15:], line.rstrip()]
    if proc.wait() != 0:
        raise SandboxError(
            f"{' '.join(argv[:2])} failed (exit {proc.returncode}): " + " | ".join(tail[-5:]),
            "check that a Debian mirror is reachable (or pass --mirror) and that disk is free",
        )


def content_hash(env_dir: Path, spec: ImageSource | SandboxSpec, base_id: str) -> str:
    """sha256 over the build context, the Dockerfile name, the base image id and build args.

    env.toml is left out: no image copies it, and editing a manifest must not retag an image.
    """
    h = hashlib.sha256()
    for path in sorted(env_dir.rglob("*")):
        if path.name == "env.toml" and path.parent == env_dir:
            continue
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(str(path.relative_to(env_dir)).encode() + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    h.update(f"dockerfile={spec.dockerfile}\0base={base_id}\0".encode())
    return h.hexdigest()


@dataclass
class BuildResult:
    """Outcome of one stack build."""

    image: str
    content_hash: str
    built: bool
    reason: str


class ImageSource(BaseModel):
    """What building needs from a `[sandbox]` table: the tag and the Dockerfile.

    A function-judged stack's table names only its image and limits (the driver's command
    comes from the translator), so building never needs the rest of a full SandboxSpec.
    """

    model_config = ConfigDict(extra="ignore")

    image: str
    dockerfile: str = "Dockerfile"


def image_source(table: dict, env_dir: Path) -> ImageSource:
    """The image part of a `[sandbox]` table; errors name the manifest."""
    try:
        return ImageSource.model_validate(table)
    except ValidationError as e:
        raise ManifestError(format_validation_error(f"{env_dir}/env.toml: sandbox", e)) from None


def build_context(env_dir: Path, spec: ImageSource | SandboxSpec) -> tuple[Path, ImageSource]:
    """The folder that holds the Dockerfile (the build context) and the Dockerfile's name."""
    path = (env_dir / spec.dockerfile).resolve()
    return path.parent, ImageSource(image=spec.image, dockerfile=path.name)


def stack_status(env_dir: Path, spec: ImageSource | SandboxSpec) -> BuildResult:
    """Whether the image of this env is present and matches its build context."""
    env_dir, spec = build_context(env_dir, spec)
    if spec.image == BASE_IMAGE:
        ok = image_exists(BASE_IMAGE)
        return BuildResult(spec.image, "", False, "base image" if ok else "missing")
    client = get_client()
    from docker.errors import ImageNotFound

    try:
        base_id = client.images.get(base_image()).id
    except ImageNotFound:
        return BuildResult(spec.image, "", False, f"base {base_image()} missing")
    digest = content_hash(env_dir, spec, base_id)
    try:
        current = (client.images.get(spec.image).labels or {}).get(HASH_LABEL)
    except ImageNotFound:
        return BuildResult(spec.image, digest, False, "missing")
    return BuildResult(spec.image, digest, False, "up to date" if current == digest else "stale")


def build_stack(env_dir: str | Path, force: bool = False, on_log: Log | None = None) -> BuildResult:
    """Build (or skip) the image of the code environment in `env_dir`."""
    env_dir = Path(env_dir).resolve()
    log = on_log or (lambda _line: None)
    manifest = read_manifest(env_dir)
    if manifest.sandbox is None:
        raise SandboxError(f"{env_dir}/env.toml has no [sandbox] table", "nothing to build")
    source = image_source(manifest.sandbox, env_dir)
    status = stack_status(env_dir, source)
    context, spec = build_context(env_dir, source)
    if spec.image == BASE_IMAGE:
        if status.reason == "missing":
            raise SandboxError(f"{BASE_IMAGE} is missing", "run `rlvr sandbox bootstrap`")
        return status
    if status.reason.startswith("base"):
        raise SandboxError(
            f"cannot build {spec.image}: {status.reason}",
            "run `rlvr sandbox bootstrap` first (or set RLVR_BASE_IMAGE to an image you have)",
        )
    if status.reason == "up to date" and not force:
        return status
    if not (context / spec.dockerfile).is_file():
        raise SandboxError(
            f"{env_dir}/env.toml: sandbox.dockerfile {source.dockerfile!r} does not exist",
            "add the Dockerfile or fix the path (relative to the env folder)",
        )
    _docker_build(context, spec, status.content_hash, log)
    return BuildResult(spec.image, status.content_hash, True, "built")


def _docker_build(env_dir: Path, spec: ImageSource, digest: str, log: Log) -> None:
    api = get_client().api
    tail: list[str] = []
    stream = api.build(
        path=str(env_dir), dockerfile=spec.dockerfile, tag=spec.image, rm=True, forcerm=True,
        buildargs={"BASE": base_image()}, labels={HASH_LABEL: digest, "rlvr.stack": env_dir.name},
        decode=True,
    )  # fmt: skip
    for chunk in stream:
        if "error" in chunk:
            raise SandboxError(
                f"docker build of {spec.image} failed: {chunk['error'].strip()}; last lines: "
                + " | ".join(tail[-5:]),
                f"fix {env_dir / spec.dockerfile} and run `{_build_command(env_dir)}` again",
            )
        line = str(chunk.get("stream", "")).rstrip()
        if line:
            tail = [*tail[-15:], line]
            log(line)


def _build_command(env_dir: Path) -> str:
    return build_command(read_manifest(env_dir).name, env_dir)
