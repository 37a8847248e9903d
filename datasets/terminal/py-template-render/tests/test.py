import json

CASES = [
    (
        "Hello {{ user.name | title }} (#{{user.id}})!\nWelcome to {{site|upper}}; you have {{ count }} new items, ok={{ok}}.\n{ not a tag } {{ site | lower }}\n",
        {"user": {"name": "ada lovelace", "id": 7}, "site": "Example", "count": 3, "ok": True},
        "Hello Ada Lovelace (#7)!\nWelcome to EXAMPLE; you have 3 new items, ok=true.\n{ not a tag } example\n",
    ),
    (
        "{{a}}{{a}}-{{ b.c.d }}-{{e|lower}}\n",
        {"a": "x", "b": {"c": {"d": [1, 2]}}, "e": "MiXeD"},
        "xx-[1, 2]-mixed\n",
    ),
    ("no tags at all\n", {}, "no tags at all\n"),
]


def _render(ws, tpl, data):
    script = (
        "d=$(mktemp -d) && cat > $d/vars.json <<'JSON_EOF'\n" + json.dumps(data) + "\nJSON_EOF\n"
    )
    script += "cat > $d/t.txt <<'TPL_EOF'\n" + tpl + "TPL_EOF\n"
    script += "python3 /app/render.py $d/t.txt $d/vars.json"
    return ws.run(script)


def test_templates(ws):
    for tpl, data, want in CASES:
        run = _render(ws, tpl, data)
        assert run.exit_code == 0 and run.output == want, (
            f"got {run.output[:300]!r}, expected {want!r}"
        )


def test_missing_name(ws):
    run = _render(ws, "Hi {{ user.email }}\n", {"user": {"name": "x"}})
    assert run.exit_code == 1, f"exit {run.exit_code}"
    assert "user.email" in run.output, f"the error does not name user.email: {run.output[:200]!r}"
    run2 = ws.run(
        "d=$(mktemp -d); printf 'Hi {{nope}}' > $d/t; echo '{}' > $d/v; python3 /app/render.py $d/t $d/v 2>/dev/null; echo \"exit=$?\""
    )
    assert run2.output == "exit=1\n", f"stdout must be empty on error: {run2.output[:200]!r}"


def test_no_trailing_newline_added(ws):
    run = ws.run(
        "d=$(mktemp -d); printf '{{x}}' > $d/t; echo '{\"x\": 5}' > $d/v; python3 /app/render.py $d/t $d/v | od -c | head -2"
    )
    assert run.output.split()[1:2] == ["5"] and "\\n" not in run.output, (
        f"output bytes: {run.output[:200]!r}"
    )
