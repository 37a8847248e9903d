EXPECTED = [
    "anna_k@corp.example.org",
    "anna_k@example.com",
    "anna_k@lists.dev",
    "anna_k@mail.test.io",
    "billing@corp.example.org",
    "billing@example.com",
    "billing@lists.dev",
    "billing@mail.test.io",
    "j.smith@corp.example.org",
    "j.smith@example.com",
    "j.smith@lists.dev",
    "j.smith@mail.test.io",
    "ops@example.com",
    "ops@lists.dev",
    "ops@mail.test.io",
    "root+alerts@corp.example.org",
    "root+alerts@example.com",
    "root+alerts@lists.dev",
    "root+alerts@mail.test.io",
    "team-lead@corp.example.org",
    "team-lead@example.com",
    "team-lead@lists.dev",
    "team-lead@mail.test.io",
    "x9@corp.example.org",
    "x9@example.com",
    "x9@lists.dev",
    "x9@mail.test.io",
]
CSV_ONLY = ["hidden.person@csv-only.example.net"]


def test_addresses(ws):
    got = ws.read_text("emails.txt").splitlines()
    missing = sorted(set(EXPECTED) - set(got))
    extra = sorted(set(got) - set(EXPECTED))
    assert not missing and not extra, f"missing {missing[:5]}, unexpected {extra[:5]}"


def test_sorted_unique_lowercase(ws):
    got = ws.read_text("emails.txt").splitlines()
    assert got == EXPECTED, (
        f"emails.txt is not the sorted, lower-cased, de-duplicated list: {got[:8]}"
    )


def test_only_txt_and_md(ws):
    got = set(ws.read_text("emails.txt").splitlines())
    assert not (got & set(CSV_ONLY)), (
        "addresses from a file that is neither .txt nor .md were included"
    )
    assert "user@localhost" not in got


def test_trailing_newline(ws):
    assert ws.read_text("emails.txt").endswith("\n")
