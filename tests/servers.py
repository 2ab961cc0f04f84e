"""A judges' server for the browser tests: ``rules_db.serve.serve`` (what ``rules-db serve`` runs) on a free port."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``rules_db.serve.serve`` (what ``rules-db serve`` runs) on a database, in a subprocess, until stopped."""

    def __init__(self, db_path: Path, tmp_dir: Path):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (tmp_dir / "server.log").open("w+")
        code = f"from rules_db.serve import serve; serve({str(db_path)!r}, port={self.port}, workers=1)"
        self.process = subprocess.Popen([sys.executable, "-c", code], stdout=self.log, stderr=subprocess.STDOUT)

    def wait_until_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.url}/-/versions.json", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        self.log.seek(0)
        raise RuntimeError(f"the server did not start on {self.url}:\n{self.log.read()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
