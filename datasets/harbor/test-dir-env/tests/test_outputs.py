import os
import subprocess


def test_executable():
    assert os.access("/app/run.sh", os.X_OK)


def test_prints_ready():
    out = subprocess.run(["/app/run.sh"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ready"
