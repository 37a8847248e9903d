EXPECTED = "20adf1d9e8128d2acee766d0fe141985b351f75b6b3059e490e91b258cc1bdbd  dataset/meta/file1.csv\n952e1c9d63e933e9e493349b6793b1b9c16f852020827e2076b5b0becd0433c1  dataset/meta/file5.csv\n5d297f9a1094e916819e78e1cec16cdec5f5072073e09cb83a2c288abe75a9af  dataset/meta/file8.csv\n70bba018d9da4a727f183f093ccc99f2285f01b5ff2e07f10c6e935358b10ba9  dataset/test/file0.csv\nad551f6eee11cb9ce6a04e5a54e12eb534b94305b61d5b7f90346a17360fa7b3  dataset/test/file3.csv\n1eb39d20096ef9ea3e93031c464e24bdb42dd9331340cbe4fb91e0c0398c0cd5  dataset/train/file4.csv\n1a81e7cd2adaf75a27bdc9bd37c076ee4d720b07bf81c6fca08fa6edc0b60c66  dataset/train/file6.csv\nc5ba773f10c96ccf47175f6547f489b4ef40e72adbca590ab4e90f43b2d65a33  dataset/train/part2/file2.csv\na8c392d52c77eccf315656bceb5d065348d82014c3c0e17bc8f912484385bb59  dataset/train/part2/file7.csv\n"


def test_extracted(ws):
    got = sorted(ws.files("dataset"))
    want = sorted(line.split("  ")[1] for line in EXPECTED.splitlines())
    assert got == want, f"dataset/ holds {got}"


def test_manifest_exact(ws):
    got = ws.read_text("SHA256SUMS")
    assert got == EXPECTED, f"SHA256SUMS is {got[:300]!r}"


def test_sha256sum_check(ws):
    run = ws.run(["sha256sum", "-c", "--strict", "SHA256SUMS"])
    assert run.exit_code == 0, run.output[:300]


def test_archive_kept(ws):
    assert ws.read_bytes("data.tar.bz2")[:3] == b"BZh", "data.tar.bz2 is missing or changed"
