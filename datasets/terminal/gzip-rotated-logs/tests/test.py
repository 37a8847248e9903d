import hashlib

EXPECTED_GZ = {
    "logs/app.log.1.gz": "4bed41daafc2709e922ec7cd749a92ed54171211c1411fc25a1b13a682606507",
    "logs/app.log.2.gz": "28069a320f1cf2285ecd67fb8a362b81d1e660b175d48235f013dcdf8a5623de",
    "logs/app.log.3.gz": "7af5a7b83f35160abad1dc286f1b36914a4400df25359fa2df1e018d8f6792d0",
    "logs/app.log.4.gz": "bea8622838ed9f7d2e3e97e9ceb723b503dc58702aaf5fa310ae8bcaa84c3128",
    "logs/app.log.5.gz": "f7eecdee7cd5a75917d3cb5fad3be29a7818502428ddabbc7a8abc6e5e6bd890",
    "logs/app.log.6.gz": "e8a0156fbd65969d3ab4755aa8e26cf7575aad8d583772b6de504b85296cf038",
}


def test_rotated_compressed(ws):
    for i in range(1, 7):
        assert not ws.exists(f"logs/app.log.{i}"), f"logs/app.log.{i} still exists uncompressed"
        assert ws.read_bytes(f"logs/app.log.{i}.gz")[:2] == b"\x1f\x8b", (
            f"app.log.{i}.gz is not gzip"
        )


def test_contents(ws):
    for name, digest in EXPECTED_GZ.items():
        run = ws.run(["gzip", "-dc", name])
        assert run.exit_code == 0, f"{name}: {run.output[:200]}"
        assert hashlib.sha256(run.output.encode()).hexdigest() == digest, (
            f"{name} does not decompress to the original log"
        )


def test_live_log_and_others_kept(ws):
    assert (
        hashlib.sha256(ws.read_bytes("logs/app.log")).hexdigest()
        == "ba5313d5945c1e414a97fba4ce3d810f1cd099d02ce41185a2128f92ef4c6f75"
    ), "app.log changed"
    assert ws.read_text("logs/other.txt") == "not a log\n", "other.txt changed"
    assert not ws.exists("logs/app.log.gz"), "app.log was compressed"
    gz = [p for p in ws.files("logs") if p.endswith(".gz.gz")]
    assert not gz, f"compressed twice: {gz}"


def test_total_lines(ws):
    got = ws.read_text("total_lines.txt").strip()
    assert got == "116", f"total_lines.txt holds {got!r}"
