import hashlib

EXPECTED = {
    "restored/srv/www/item0.conf": "422b367a6d333883dbc0dc7f88d2235c35d39038e1837bce02f90b0f3bbe52cc",
    "restored/srv/item1.conf": "555bede6462f74f304f627cd37887f10b6689306fa4b19a5976b47e13b4ebd0d",
    "restored/srv/item2.html": "192369030b9296c4d3372c93a65a8d83ee8d4de04b497dba42f534b569cb9151",
    "restored/srv/www/item3.html": "de7cdfe829506c7dd77652f4818c18fab9d3e82f4e1e1284f3819f10fb716a26",
    "restored/srv/www/item4.txt": "0523f6a99c908398c35fa959d6fb52b6a52cd6d83e4fe541e336564f2b45025b",
    "restored/srv/conf/item5.conf": "957a6efec1b740e7cbb78f80ee57ecd7a807cf9e89f4701bfc1933d190070456",
}


def test_files_restored(ws):
    for p, h in EXPECTED.items():
        assert ws.is_file(p), f"{p} is missing"
        assert hashlib.sha256(ws.read_bytes(p)).hexdigest() == h, f"{p} has the wrong content"


def test_binary_restored(ws):
    assert ws.is_file("restored/srv/www/img/blob.bin"), "restored/srv/www/img/blob.bin is missing"
    data = ws.read_bytes("restored/srv/www/img/blob.bin")
    assert len(data) == 20000, f"blob.bin has {len(data)} bytes"


def test_layout(ws):
    files = ws.files("restored")
    assert all(p.startswith("restored/srv/") for p in files), f"unexpected layout: {files[:5]}"
    assert len(files) == 7, f"restored/ holds {len(files)} files"


def test_parts_kept(ws):
    assert ws.is_file("backup.tar.gz.part-aa") and ws.is_file("backup.tar.gz.part-ab"), (
        "part files are gone"
    )
