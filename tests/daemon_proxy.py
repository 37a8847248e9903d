"""A Docker daemon that goes away and comes back, as the host sees it: a unix socket in front
of the real one that a test cuts and restores (tests that need a daemon outage share it)."""

from __future__ import annotations

import threading


class Proxy:
    """A unix socket in front of the daemon's that a test can cut (every connection closed, new
    ones closed at once) and restore: the daemon, as the grader sees it, goes away and returns."""

    def __init__(self, path: str, target: str = "/var/run/docker.sock") -> None:
        import socket

        self.path, self.target = path, target
        self.up = threading.Event()
        self.up.set()
        self.conns: list = []
        self.lock = threading.Lock()
        self.srv = socket.socket(socket.AF_UNIX)
        self.srv.bind(path)
        self.srv.listen(256)
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket

        while True:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            if not self.up.is_set():
                c.close()
                continue
            u = socket.socket(socket.AF_UNIX)
            u.connect(self.target)
            with self.lock:
                self.conns += [c, u]
            for a, b in ((c, u), (u, c)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a, b) -> None:
        import socket

        try:
            while chunk := a.recv(1 << 16):
                b.sendall(chunk)
            b.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def cut(self) -> None:
        import contextlib
        import socket

        self.up.clear()
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
                s.close()

    def close(self) -> None:
        self.cut()
        self.srv.close()


def through_proxy(monkeypatch, tmp_path, wait_s: float) -> Proxy:
    from rlvr.sandbox import client
    from rlvr.sandbox.docker import close_all_pools

    close_all_pools()
    proxy = Proxy(str(tmp_path / "docker.sock"))
    monkeypatch.setenv("DOCKER_HOST", f"unix://{proxy.path}")
    monkeypatch.setattr(client, "_client", None)
    monkeypatch.setattr(client, "DAEMON_WAIT_S", wait_s)
    return proxy
