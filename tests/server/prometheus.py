"""A real Prometheus (Debian's ``prometheus`` package) for the metrics tests: its own
configuration and data folder, listening on a free port of 127.0.0.1, scraping the given
targets every second; queried through its HTTP API (``/api/v1/query``)."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from .helpers import START_TIMEOUT, TIMEOUT, free_port

CONFIG = """\
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: parlour
    metrics_path: /metrics
    static_configs:
      - targets: [{targets}]
"""


class Prometheus:
    """``prometheus`` scraping ``targets`` (``host:port``), in ``folder``."""

    def __init__(self, folder: Path, targets: list[str]) -> None:
        binary = shutil.which("prometheus")
        if binary is None:
            raise RuntimeError("the metrics tests need Prometheus: apt-get install prometheus "
                               "(.ci/run installs it when it is missing)")
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.config = folder / "prometheus.yml"
        self.config.write_text(CONFIG.format(targets=", ".join(f'"{t}"' for t in targets)))
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = folder / "prometheus.log"

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Prometheus:
        self.log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [self.binary, f"--config.file={self.config}",
             f"--storage.tsdb.path={self.folder / 'data'}",
             f"--web.listen-address=127.0.0.1:{self.port}"],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=self.folder)
        try:
            self.until(lambda: self._ready(), START_TIMEOUT, "Prometheus to be ready")
        except BaseException:
            self.stop()
            raise
        return self

    def _ready(self) -> bool:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise RuntimeError(f"prometheus exited: {self.log_path.read_text()[-2000:]}")
        try:
            return httpx.get(f"{self.base}/-/ready", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.log.close()

    def __enter__(self) -> Prometheus:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def query(self, expression: str) -> list[dict[str, Any]]:
        """The instant vector ``expression`` evaluates to now: ``[{"metric", "value"}]``."""
        reply = httpx.get(f"{self.base}/api/v1/query", params={"query": expression},
                          timeout=TIMEOUT)
        body = reply.json()
        assert reply.status_code == 200 and body["status"] == "success", reply.text
        assert body["data"]["resultType"] == "vector"
        return body["data"]["result"]

    def by_label(self, expression: str, label: str) -> dict[str, float]:
        """``expression``'s values by one of their labels."""
        return {r["metric"].get(label, ""): float(r["value"][1]) for r in self.query(expression)}

    @staticmethod
    def until(condition: Callable[[], Any], timeout: float = TIMEOUT, what: str = "") -> Any:
        """Ask ``condition`` again (every 0.2 s) until it gives something true."""
        deadline = time.monotonic() + timeout
        while True:
            found = condition()
            if found:
                return found
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:.0f} s for {what or condition}")
            time.sleep(0.2)
