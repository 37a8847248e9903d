EXPECTED = "; service configuration\n[database]\nhost = db.internal\nport = 5432\nuser = app\n\n[server]\nhost = 0.0.0.0\nport = 8443\ndebug = false\nworkers = 4\n\n[cache]\nhost = cache.internal\nport = 6379\ndebug = true\n"


def _lines(ws):
    return ws.read_text("config.ini").splitlines()


def test_server_section_changed(ws):
    lines = _lines(ws)
    i = lines.index("[server]")
    j = lines.index("[cache]")
    section = lines[i:j]
    assert "port = 8443" in section, f"[server] is {section}"
    assert "debug = false" in section, f"[server] is {section}"


def test_other_sections_kept(ws):
    lines = _lines(ws)
    assert "port = 5432" in lines and "port = 6379" in lines, "another section's port changed"
    j = lines.index("[cache]")
    assert "debug = true" in lines[j:], "[cache] debug changed"


def test_whole_file(ws):
    got = ws.read_text("config.ini")
    assert got == EXPECTED, f"config.ini differs from the expected file: {got!r}"[:500]
