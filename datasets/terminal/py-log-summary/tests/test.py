import json
import shlex

CASES = [
    (
        "2026-11-09 18:31:01 INFO db: user: bob\n2026-11-27 18:23:28 ERROR auth-svc: disk 91% full\n2026-11-21 02:46:22 INFO cache_2: timeout after 30s\n2026-11-02 07:06:04 WARN cache_2: user: bob\n2026-11-13 16:58:32 WARN db: ok\n2026-11-01 10:00:00 INFO DB: upper comp\n2026-11-19 07:12:20 WARN api: user: bob\n\n2026-11-14 11:59:36 DEBUG api: timeout after 30s\n2026-11-25 11:51:59 DEBUG cache_2: timeout after 30s\n2026-11-16 13:32:58 INFO api: ok\n2026-11-17 12:30:27 DEBUG cache_2: ok\n2026-11-10 09:24:34 INFO auth-svc: timeout after 30s\n2026-11-18 08:09:16 WARN api: timeout after 30s\n2026-11-01 10:00 INFO db: short ts\n2026-11-17 10:43:41 DEBUG auth-svc: ok\n2026-11-27 12:42:23 ERROR api: timeout after 30s\n2026-11-13 14:16:58 DEBUG db: ok\n2026-11-01 02:51:35 DEBUG cache_2: ok\n2026-11-16 13:18:30 WARN auth-svc: timeout after 30s\n2026-11-07 00:49:19 DEBUG api: timeout after 30s\n2026-11-10 05:02:42 INFO api: ok\n2026-11-02 19:44:31 ERROR auth-svc: ok\ngarbage line\n2026-11-16 16:50:21 DEBUG api: disk 91% full\n2026-11-13 00:38:24 WARN auth-svc: ok\n2026-11-13 04:12:45 ERROR auth-svc: disk 91% full\n2026-11-02 07:00:01 DEBUG auth-svc: timeout after 30s\n2026-11-27 20:25:35 INFO api: timeout after 30s\n2026-11-17 22:59:41 WARN cache_2: disk 91% full\n2026-11-17 02:19:02 ERROR auth-svc: disk 91% full\n2026-11-01 18:32:32 DEBUG auth-svc: user: bob\n2026-11-12 08:27:17 DEBUG auth-svc: ok\n2026-11-15 08:01:53 INFO cache_2: ok\n2026-11-17 01:20:09 ERROR cache_2: ok\n2026-11-25 06:36:38 WARN api: disk 91% full\n2026-11-21 09:55:06 ERROR auth-svc: disk 91% full\n2026-11-03 13:33:35 DEBUG api: timeout after 30s\n2026-11-01 10:00 INFO db: short ts\n2026-11-26 11:02:08 ERROR api: disk 91% full\n",
        {
            "total": 35,
            "malformed": 4,
            "levels": {"INFO": 7, "ERROR": 8, "WARN": 8, "DEBUG": 12},
            "components": {"db": 3, "auth-svc": 12, "cache_2": 8, "api": 12},
            "first": "2026-11-01 02:51:35",
            "last": "2026-11-27 20:25:35",
            "errors": [
                "disk 91% full",
                "timeout after 30s",
                "ok",
                "disk 91% full",
                "disk 91% full",
                "ok",
                "disk 91% full",
                "disk 91% full",
            ],
        },
    ),
    (
        "2026-11-03 20:21:33 WARN cache_2: ok\n2026-11-15 12:33:52 ERROR cache_2: timeout after 30s\n2026-11-24 07:43:19 DEBUG auth-svc: disk 91% full\n2026-11-23 10:28:06 DEBUG db: disk 91% full\n2026-11-28 14:59:56 INFO auth-svc: user: bob\n2026-11-12 17:25:42 INFO db: timeout after 30s\n2026-11-07 21:11:38 WARN auth-svc: user: bob\n2026-11-01 10:00 INFO db: short ts\n2026-11-05 09:52:36 INFO db: ok\n2026-11-20 18:45:54 INFO db: ok\n2026-11-03 04:07:06 DEBUG auth-svc: timeout after 30s\n2026-11-18 03:49:34 WARN cache_2: timeout after 30s\n2026-11-18 20:52:31 WARN db: timeout after 30s\n2026-11-18 09:42:38 INFO db: timeout after 30s\n2026-11-07 22:59:00 WARN cache_2: timeout after 30s\n2026-11-04 03:13:02 INFO api: ok\n2026-11-18 19:30:57 INFO cache_2: user: bob\n2026-11-22 09:38:30 ERROR db: ok\n2026-11-26 11:05:50 WARN cache_2: timeout after 30s\n2026-11-11 11:00:25 WARN api: ok\n2026-11-20 14:46:54 WARN db: disk 91% full\n2026-11-19 14:05:32 DEBUG cache_2: user: bob\n2026-11-18 12:45:10 INFO cache_2: disk 91% full\n2026-11-07 04:35:47 ERROR api: ok\n2026-11-19 10:39:01 DEBUG db: ok\n2026-11-01 10:00 INFO db: short ts\n2026-11-10 13:06:00 ERROR db: ok\n2026-11-12 01:09:41 ERROR db: timeout after 30s\n2026-11-11 03:59:58 WARN api: disk 91% full\n2026-11-27 03:15:39 ERROR db: ok\n2026-11-10 07:09:57 ERROR cache_2: disk 91% full\n2026-11-06 23:18:39 INFO cache_2: timeout after 30s\n2026-11-20 01:47:29 INFO db: ok\n2026-11-11 04:05:23 ERROR db: timeout after 30s\n2026-11-18 08:07:42 WARN db: timeout after 30s\ngarbage line\n2026-11-01 10:00 INFO db: short ts\n2026-11-19 16:48:00 WARN cache_2: user: bob\n2026-11-18 10:44:45 DEBUG auth-svc: ok\n2026-11-10 00:39:57 INFO api: user: bob\n2026-11-27 13:12:59 INFO auth-svc: ok\n2026-11-01 10:00:00 INFO DB: upper comp\n2026-11-21 11:54:55 DEBUG db: timeout after 30s\n2026-11-08 21:42:10 WARN api: user: bob\n2026-11-14 21:16:40 INFO cache_2: ok\n\n2026-11-14 20:38:15 DEBUG api: timeout after 30s\n2026-11-15 17:32:58 ERROR cache_2: disk 91% full\n2026-11-01 10:00:00 INFO DB: upper comp\n2026-11-14 22:42:20 DEBUG cache_2: disk 91% full\n2026-11-06 22:46:09 ERROR cache_2: user: bob\n2026-11-04 22:01:41 DEBUG cache_2: disk 91% full\n2026-11-08 22:26:45 ERROR auth-svc: ok\n2026-11-17 12:14:06 WARN api: disk 91% full\n2026-11-07 11:29:12 ERROR api: timeout after 30s\n2026-11-09 02:50:47 DEBUG auth-svc: timeout after 30s\n2026-11-14 12:50:26 DEBUG cache_2: ok\n2026-11-11 04:23:32 ERROR api: disk 91% full\n2026-11-11 09:09:23 WARN db: timeout after 30s\n2026-11-08 05:39:04 INFO cache_2: timeout after 30s\n2026-11-04 23:41:57 WARN api: ok\n2026-11-26 18:35:09 ERROR api: ok\n2026-11-20 15:37:51 ERROR cache_2: disk 91% full\n2026-11-01 10:00 INFO db: short ts\n2026-11-18 14:22:40 WARN cache_2: disk 91% full\n2026-11-21 09:20:41 INFO api: user: bob\n2026-11-04 05:41:39 DEBUG db: disk 91% full\n2026-11-26 11:32:40 INFO db: timeout after 30s\n2026-11-02 20:35:28 WARN auth-svc: disk 91% full\n2026-11-21 18:09:12 ERROR db: ok\n2026-11-28 18:01:29 INFO api: timeout after 30s\n2026-11-03 01:40:49 ERROR db: disk 91% full\n2026-11-12 11:01:02 DEBUG auth-svc: ok\n2026-11-28 21:56:45 DEBUG cache_2: user: bob\n2026-11-18 22:21:26 WARN api: ok\n2026-11-20 07:33:02 INFO api: timeout after 30s\n2026-11-22 14:23:34 INFO api: disk 91% full\n\n2026-11-24 10:04:27 ERROR api: user: bob\n2026-11-19 13:31:09 INFO auth-svc: user: bob\n",
        {
            "total": 71,
            "malformed": 7,
            "levels": {"WARN": 18, "ERROR": 18, "DEBUG": 15, "INFO": 20},
            "components": {"cache_2": 21, "auth-svc": 11, "db": 21, "api": 18},
            "first": "2026-11-02 20:35:28",
            "last": "2026-11-28 21:56:45",
            "errors": [
                "timeout after 30s",
                "ok",
                "ok",
                "ok",
                "timeout after 30s",
                "ok",
                "disk 91% full",
                "timeout after 30s",
                "disk 91% full",
                "user: bob",
                "ok",
                "timeout after 30s",
                "disk 91% full",
                "ok",
                "disk 91% full",
                "ok",
                "disk 91% full",
                "user: bob",
            ],
        },
    ),
    (
        "",
        {
            "total": 0,
            "malformed": 0,
            "levels": {},
            "components": {},
            "first": None,
            "last": None,
            "errors": [],
        },
    ),
    (
        "no valid lines\n",
        {
            "total": 0,
            "malformed": 1,
            "levels": {},
            "components": {},
            "first": None,
            "last": None,
            "errors": [],
        },
    ),
]


def _run(ws, text):
    run = _feed(ws, ["python3", "summarize.py"], text)
    assert run.exit_code == 0, f"summarize.py exits {run.exit_code}: {run.output[-300:]}"
    return json.loads(run.output)


def test_sample(ws):
    got = _run(
        ws,
        "2026-11-01 10:00 INFO db: short ts\n2026-11-03 13:56:34 INFO api: user: bob\n2026-11-25 22:51:08 INFO auth-svc: user: bob\n2026-11-18 14:24:15 DEBUG db: ok\n2026-11-14 16:26:45 ERROR db: ok\n2026-11-21 16:24:09 ERROR auth-svc: timeout after 30s\n2026-11-01 07:01:33 INFO api: disk 91% full\n2026-11-15 20:12:33 INFO db: disk 91% full\n2026-11-01 10:00:00 INFO DB: upper comp\n2026-11-02 09:39:45 ERROR cache_2: disk 91% full\n2026-11-25 12:41:14 DEBUG api: ok\n2026-11-22 23:11:36 WARN auth-svc: timeout after 30s\n",
    )
    assert got == {
        "total": 10,
        "malformed": 2,
        "levels": {"INFO": 4, "DEBUG": 2, "ERROR": 3, "WARN": 1},
        "components": {"api": 3, "auth-svc": 3, "db": 3, "cache_2": 1},
        "first": "2026-11-01 07:01:33",
        "last": "2026-11-25 22:51:08",
        "errors": ["ok", "timeout after 30s", "disk 91% full"],
    }, got


def test_new_logs(ws):
    for text, want in CASES:
        got = _run(ws, text)
        assert got == want, (
            f"for a log of {len(text.splitlines())} lines: got {got}, expected {want}"
        )


def test_message_with_colon(ws):
    got = _run(
        ws, "2026-01-02 03:04:05 ERROR api: upstream: refused\n2026-01-02 03:04:05 ERROR api: \n"
    )
    assert got["errors"] == ["upstream: refused", ""] and got["malformed"] == 0, got


def _feed(ws, argv, stdin):
    """Run argv with `stdin` as its input, passed through a file (the program may exit before reading it)."""
    return ws.run('f=$(mktemp) && cat > "$f" && exec ' + shlex.join(argv) + ' < "$f"', stdin=stdin)
