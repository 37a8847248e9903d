WANT = "# main server\nserver {\n    listen 80;\n    server_name example.org;\n\n    # BEGIN tls\n    listen 443 ssl;\n    ssl_certificate /etc/ssl/example.pem;\n    ssl_certificate_key /etc/ssl/example.key;\n    # END tls\n\n    # BEGIN gzip\n    # gzip on;\n    # gzip_types text/css application/json;\n    # END gzip\n\n    # keep this comment\n    location / {\n        # root /srv/old;\n        root /srv/www;\n    }\n}\n"


def test_tls_block(ws):
    got = ws.read_text("site.conf").splitlines()
    for line in (
        "    listen 443 ssl;",
        "    ssl_certificate /etc/ssl/example.pem;",
        "    ssl_certificate_key /etc/ssl/example.key;",
    ):
        assert line in got, f"{line.strip()!r} is not uncommented with its indentation"


def test_rest_unchanged(ws):
    got = ws.read_text("site.conf").splitlines()
    for line in (
        "    # BEGIN tls",
        "    # END tls",
        "    # gzip on;",
        "        # root /srv/old;",
        "    # keep this comment",
    ):
        assert line in got, f"{line.strip()!r} was changed"


def test_whole_file(ws):
    assert ws.read_text("site.conf") == WANT, "site.conf differs from the expected file"
