"""A judges' server for the tests that need a real port: ``rules_db.serve.serve`` (what ``rules-db serve`` runs)
in a subprocess on a free port, or ``in_a_thread`` the site served by uvicorn in this process; ``in_process`` the
site for Datasette's own client. ``patience`` gives the tests' waits their deadlines."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from rules_db.serve import PLUGIN, listening_on, metadata


def patience(seconds: float) -> float:
    """``seconds`` of waiting on a quiet machine, stretched by how many runnable processes share each core: the
    suite runs beside other work, and a server that starts in 5 s at load 1 takes 40 s at load 16 on two cores
    with nothing wrong. A wait still ends early when what it waits for has died."""
    return seconds * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def in_process(db_path: Path, **settings):
    """The judges' site on ``db_path`` in this test process, for Datasette's own client (with Datasette's
    ``settings``): immutable, with its metadata, and the plugin's ``warm_up`` setting off as on the tests' servers, so
    the replay sandbox's workers are spawned by the first replay that needs them rather than by the site's startup
    (most page tests replay nothing)."""
    from datasette.app import Datasette

    described = metadata(db_path)
    described.setdefault("plugins", {}).setdefault(PLUGIN, {})["warm_up"] = False  # as serve(warm_up=False) does
    # One site per module serves tests that each run their own event loop: no two requests at once on it.
    return Datasette(immutables=[str(db_path)], metadata=described, settings=settings or None)


@contextlib.contextmanager
def in_a_thread(db_path: Path) -> Iterator[str]:
    """The judges' site on ``db_path`` (``in_process``) served over HTTP on a free port by uvicorn in a thread of
    this test process, as one worker of ``rules-db serve`` serves it; its address, until the block ends. A server
    process of its own would spend a second and a half of CPU importing Datasette again."""
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(in_process(db_path).app(), port=port, log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"server of {db_path.name}", daemon=True)
    thread.start()
    deadline = time.monotonic() + patience(30)
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        if not server.started:
            raise RuntimeError(f"uvicorn did not start serving {db_path} on port {port}")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=patience(10))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``rules_db.serve.serve`` (what ``rules-db serve`` runs) on a database, in a subprocess with ``workers``
    worker processes, until stopped; its output goes to ``server.log`` in ``tmp_dir``, shown when it fails.

    It starts without the warm-up (a page of each kind rendered by every worker before it serves: seconds of CPU
    for pages most tests never open) unless ``warm_up`` asks for it, as the test of serving itself does."""

    def __init__(self, db_path: Path, tmp_dir: Path, workers: int = 1, warm_up: bool = False):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (tmp_dir / "server.log").open("w+")
        code = (
            f"from rules_db.serve import serve; "
            f"serve({str(db_path)!r}, port={self.port}, workers={workers}, warm_up={warm_up})"
        )
        self.process = subprocess.Popen([sys.executable, "-c", code], stdout=self.log, stderr=subprocess.STDOUT)
        self.workers = workers

    def wait_until_ready(self, path: str = "/-/versions.json", timeout: float = 60) -> str:
        """The body of ``path`` once every worker serves (the first answer may take a while: it starts; and a worker
        still warming up leaves the connections to the others)."""
        deadline = time.monotonic() + patience(timeout)
        listening = None  # workers listening when it last answered; None until it answers
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                body = self.get(path, timeout=2)
            except OSError:  # not listening yet (an error status is not an OSError here: it fails at once)
                time.sleep(0.2)
                continue
            listening = listening_on(self.port)
            if listening is None or listening >= self.workers:
                return body
            time.sleep(0.2)
        if self.process.poll() is not None:
            status = "ended"
        elif listening is None:
            status = f"did not answer {path} within {patience(timeout):.0f} s"
        else:
            status = f"had {listening} of {self.workers} workers listening after {patience(timeout):.0f} s"
        self.stop()
        raise RuntimeError(f"the server on {self.url} {status}:\n{self.output()}")

    def get(self, path: str, timeout: float = 60) -> str:
        """The body of ``path``; an error status fails with the server's output (its log has the cause)."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=patience(timeout)) as response:
                return response.read().decode()
        except urllib.error.HTTPError as error:
            raise AssertionError(f"{path[:200]} answered {error.code}; the server said:\n{self.output()}") from error

    def output(self) -> str:
        return Path(self.log.name).read_text(encoding="utf-8", errors="replace")[-3000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # its worker processes end with it (rules_db.serve.serve)
            try:
                self.process.wait(timeout=patience(10))
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


async def get_page(datasette, path: str, status: int = 200):
    """Datasette's own client's answer to ``path``, which must have ``status`` (else the path, the status and the
    start of the page are said)."""
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:800])
    return response
