"""`rlvr sandbox doctor` prints every fix whole, whatever the console's width."""

from rich.console import Console

from rlvr.sandbox.doctor import Check, print_report

FIX = (
    "docker build -t rlvr-go:bookworm -f /a/long/path/to/envs/go/Dockerfile "
    "/a/long/path/to/envs/go  # or: rlvr sandbox build go"
)


def test_a_fix_longer_than_the_console_is_printed_whole() -> None:
    console = Console(width=80, record=True, color_system=None)
    checks = [
        Check("docker daemon", True, "answers", "never shown"),
        Check("env go (rlvr-go:bookworm)", False, "built from another Dockerfile " * 4, FIX),
    ]
    print_report(checks, console)
    text = console.export_text()
    assert f"fix (env go (rlvr-go:bookworm)): {FIX}\n" in text
    assert "never shown" not in text and "…" not in text
