import hashlib

MOVED = [
    "archive/q1/lastyear.csv",
    "archive/q1/r03.csv",
    "archive/q1/r10.csv",
    "archive/q1/r15.csv",
    "archive/q3/deep/r13.csv",
    "archive/r00.csv",
]
STAY = [
    "reports/q1/boundary.csv",
    "reports/q1/r09.csv",
    "reports/q1/r12.csv",
    "reports/q2/r01.csv",
    "reports/q2/r06.csv",
    "reports/q2/r11.csv",
    "reports/q2/r14.csv",
    "reports/q3/deep/r02.csv",
    "reports/q3/deep/r04.csv",
    "reports/q3/deep/r08.csv",
    "reports/r05.csv",
    "reports/r07.csv",
]
CONTENTS = {
    "archive/r00.csv": "749cf5a7aa40c0d61972916a42de8c97273c47bdf7d21c7e7ad941674b06c2c0",
    "archive/q1/r03.csv": "339dc903f219164f70dc937b4e62c7c884992a31d2c3002dd8377b64439120b2",
    "archive/q1/r10.csv": "d2df8871a30c7e595c0a1637f56f43347615840ed00e0ed41e5ea997fd7f9a4c",
    "archive/q3/deep/r13.csv": "5a3f9e0c2f063ecd36920424207caf47ec29a3ee3e44c2cc50a0b2d833848c90",
    "archive/q1/r15.csv": "7eda2f45e2d3634203c9e654cc7a113ede4ef898e6fa30194c780b97ea556f16",
    "archive/q1/lastyear.csv": "761d1fb145ca8c7130231412276df60f34dd34554c4d174b973a45e3222475a9",
    "reports/q2/r01.csv": "9a081a465811ef2c49cd4f9249472c92f91a3191a157182dc7237045afb254aa",
    "reports/q3/deep/r02.csv": "3682897d6f1d0507411147d083e4f70c1dea83f1ffc16a9cdd29cb6577d92915",
    "reports/q3/deep/r04.csv": "b635f2582d30fbce18697a8e3e7ee81c98f1e94924df144077b192cb70234cf1",
    "reports/r05.csv": "726b862e0d737a37489f8cfa8ddc564b9547711f03c3e2264717cf9e39fb8a57",
    "reports/q2/r06.csv": "67cdd20ade3d627f3378ed6ac8c63eabcfc78856e73d17536e272f552608e732",
    "reports/r07.csv": "01f3c2d1a793e789aeec65c372af76fe8788c1123459aaecb26b6a66affa5ab9",
    "reports/q3/deep/r08.csv": "c4ff6ba44a8b253b88b8f56ef7e743df9b9e03d9e9a0fc691b5909238efd048d",
    "reports/q1/r09.csv": "8a7bc3a74dc09bc350381f604a4e101e761c970759df3331870e5317eee41b9d",
    "reports/q2/r11.csv": "6386d57f4c7f177872f3eeead398ec0ed09ee6a490952db2b3c1a28c35b9ea14",
    "reports/q1/r12.csv": "bdca50007dc7508e1b107a3e92b4cd44b6823f018b759cd33661088dcdcd204d",
    "reports/q2/r14.csv": "91b67764366569deb06aca0fc913560d370d1ab43f85c871f876d594e8799afa",
    "reports/q1/boundary.csv": "acbba3db1ab3978fff2a86e5be30abf56d361816adec92ae9cd5745893d05b8e",
}


def test_old_files_moved(ws):
    got = ws.files("archive")
    assert got == MOVED, f"archive/ holds {got}, expected {MOVED}"


def test_recent_files_stay(ws):
    got = ws.files("reports")
    assert got == STAY, f"reports/ holds {got}, expected {STAY}"


def test_contents(ws):
    for p, h in CONTENTS.items():
        assert hashlib.sha256(ws.read_bytes(p)).hexdigest() == h, f"{p} has the wrong content"
