OK = [
    ("1", "I"),
    ("4", "IV"),
    ("9", "IX"),
    ("14", "XIV"),
    ("40", "XL"),
    ("90", "XC"),
    ("400", "CD"),
    ("1994", "MCMXCIV"),
    ("2026", "MMXXVI"),
    ("3999", "MMMCMXCIX"),
    ("3888", "MMMDCCCLXXXVIII"),
    ("444", "CDXLIV"),
    ("1666", "MDCLXVI"),
    ("3012", "MMMXII"),
    ("3603", "MMMDCIII"),
    ("232", "CCXXXII"),
    ("1485", "MCDLXXXV"),
    ("2730", "MMDCCXXX"),
    ("1779", "MDCCLXXIX"),
    ("2703", "MMDCCIII"),
    ("1435", "MCDXXXV"),
    ("III", "3"),
    ("XIX", "19"),
    ("MCDXLIV", "1444"),
    ("MMCMXCIX", "2999"),
    ("MMMDXLIX", "3549"),
    ("DXLVII", "547"),
    ("MDCCCLXI", "1861"),
]
BAD = ["0", "4000", "-5", "IIII", "VX", "IC", "MMMM", "abc", "", "XIIV", "iv", "12a"]


def test_examples(ws):
    run = ws.run(["./roman", "1994"])
    assert run.exit_code == 0 and run.output == "MCMXCIV\n", run.output[:200]
    run = ws.run(["./roman", "MCMXCIV"])
    assert run.exit_code == 0 and run.output == "1994\n", run.output[:200]


def test_conversions(ws):
    for arg, want in OK:
        run = ws.run(["./roman", arg])
        assert run.exit_code == 0 and run.output == want + "\n", (
            f"./roman {arg}: {run.output[:100]!r} (exit {run.exit_code}), expected {want!r}"
        )


def test_invalid(ws):
    for arg in BAD:
        run = ws.run(["./roman", arg])
        assert run.exit_code == 1, (
            f"./roman {arg!r} exits {run.exit_code} (output {run.output[:80]!r}), expected 1"
        )


def test_source_present(ws):
    assert "package main" in ws.read_text("roman.go"), "roman.go is missing"


def test_built_programs_are_compiled(ws):
    for name in ["roman"]:
        kind = ws.run(["file", "-b", name]).output
        assert kind.startswith("ELF"), f"{name} is not a compiled ELF file: {kind[:100]}"
