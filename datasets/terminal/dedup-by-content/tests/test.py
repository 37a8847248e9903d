import hashlib

KEEP = {
    "downloads/a.txt": "59ff1d9c41c55555bc4ec583fb6ec91d9f08bed641b9f69e3584d06c0404ca2b",
    "downloads/report.pdf": "d462ba5507be3890ae62378ef573fcdf183fb9fc5442d483e32fe93d7e53138d",
    "downloads/report (1).pdf": "c470a4d5d434dfcbb36cecadbcc81c31605dc16de6e45d3332b14062dc96021d",
    "downloads/img/cat-copy.png": "83825aad21e682e417a58f29265fd55e4d6ef2ac9121e990915dc9b0e7ba3e71",
    "downloads/misc/notes-2.md": "6a4252894e3516504ff3ff6d3e5c918fd6480b851ee5f3d6281e001e3cf7e1b5",
    "downloads/Zeta.bin": "72171a4cb7090e994225020249098b5ca89ebe5960e11e44182eb4ad9a3d9c6f",
    "downloads/single.dat": "5b6f32614d978411d088b812abef0a2348065a111b92185f2a2dceb2c4d9cc6b",
    "downloads/copy of a.txt": "a2b0fd9654fbc7e2740448d602a502a05b03ccca3bd11315394aa505f4a74162",
}
REMOVED = [
    "b.txt",
    "img/cat.png",
    "img/dog.png",
    "misc/notes.md",
    "misc/x/y/deep.dat",
    "old/a.txt",
    "old/b.txt",
    "zeta.bin",
]


def test_kept_files(ws):
    got = ws.files("downloads")
    assert sorted(got) == sorted(KEEP), f"downloads/ holds {got}"


def test_kept_contents(ws):
    for p, h in KEEP.items():
        assert hashlib.sha256(ws.read_bytes(p)).hexdigest() == h, f"{p} was changed"


def test_removed_list(ws):
    got = ws.read_text("removed.txt").splitlines()
    assert got == REMOVED, f"removed.txt holds {got}"
