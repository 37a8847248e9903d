import hashlib

FINAL = {
    "photos/2026-07-21_7684.jpg": "1a50bce0ec823b1a794b97cf3c012b16031753f627f39fa7b38eec1db59542f9",
    "photos/2026-04-22_6521.jpg": "d7dd52deb47e34d02c4100570daacdd84f767dd6cac704120cb96a6ca4a092e5",
    "photos/2026-08-02_8648.jpg": "9fb48b777c04892aa3f1c53221b38ef6f78ab64d5c0e4cb7e03e039356aef1ca",
    "photos/2026-08-21_8569.jpg": "437927dc338f106fa47db3d0a3704ac1cd41a5159d56a346215a5c760d735dfb",
    "photos/2026-06-16_2104.jpg": "8a4361990400d55bfb7214d2122e4b7e73da862a2ae3f6f12e3c35f6965fdce5",
    "photos/2026-12-27_0603.jpg": "99cdc784ec9c1dc1a8075d808804eade6bddda9a510b8a4e31206f91e515d7df",
    "photos/2026-05-15_7727.jpg": "9af3d0df311e0c20ba94e7b60d50908b0fe72b22a3d19dbad36bcdc41808dc86",
    "photos/2026-01-06_1637.jpg": "588abf0e019e92204a88c96698f7cc57fd69ecfd6740bf9efacbf524faa30419",
    "photos/2026-01-06_3490.jpg": "b8ce858ffa5843e59a76596ffc70ab398d22c9b4bbc07e992eb4f32c47ec47b9",
    "photos/2026-03-08_3245.jpg": "a8b8bc81f3030264977b0e07a58a5a972cd237d60929c01f06cd41f3ab357f47",
    "photos/2026-05-21_5746.jpg": "c103dfa5b29d666de6056d08e1b97bf371c9d7932f7c92914ece043b2c7b824d",
    "photos/2026-06-28_7537.jpg": "df47ccbc8a45f5af4aaab96a02c9e50081d32211beef5eb46176698b10808cbe",
    "photos/2026-01-20_3189.jpg": "6cfe7a2367273eaddfefcf66521680a5a12e229e812aa4170b0a3cad7fe39fbd",
    "photos/2026-10-12_5726.jpg": "d9e704e06c03fa89b3996f3edb7bd6cf9c19f8805db9845b90bd5bb0cbf5bcee",
    "photos/IMG_2026_0001.jpg": "edcaa73bc78d5edead4530027f62ca6c5c2d9c5b61014e40e87ef1d12eb70ce6",
    "photos/notes.txt": "2b8425c4d20e743705f4787b4dda39344b4242bc8636228a00b7d65378aa7694",
    "photos/IMG_20261301_12.jpg": "88e4ed2092cd8d611edcdeeb3703691e6a3168de02d2c7ae94cb833070b641d8",
    "photos/VID_20260405_0001.mp4": "152d7cac730e08f2e3200cf66a874885f3188a585d3be33689ac1ccd9ef4bd06",
    "photos/IMG_20260101_0001.png": "33d8344a7135c42aa3876706b908f95b702d83ff53e05e4aaff17c07bf67a98e",
}


def test_file_names(ws):
    got = ws.files("photos")
    missing = sorted(set(FINAL) - set(got))
    extra = sorted(set(got) - set(FINAL))
    assert not missing and not extra, f"missing {missing[:5]}, unexpected {extra[:5]}"


def test_contents_follow_names(ws):
    for p, h in FINAL.items():
        assert hashlib.sha256(ws.read_bytes(p)).hexdigest() == h, (
            f"{p} does not hold the content of the photo it was renamed from"
        )


def test_no_img_jpg_left(ws):
    import re

    left = [p for p in ws.files("photos") if re.fullmatch(r"photos/IMG_\d{8}_\d{4}\.(?i:jpg)", p)]
    assert not left, f"not renamed: {left}"
