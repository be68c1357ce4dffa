"""The stack docs/operating.md tells an operator to run, started for real: Caddy (Debian's
``caddy``) terminating TLS with its internal certificate authority, in front of several
``parlour serve`` processes on one PostgreSQL (a throwaway cluster).

Used by the stack's tests (``tests/browser/test_tls_stack.py``) and its figures
(``bench/stack_load.py``). The Caddyfile written here is the one the docs show, with the
addresses filled in; Caddy's own state (its CA, certificates) lives in the stack's folder, and
``skip_install_trust`` keeps it out of the machine's trust store.
"""

from __future__ import annotations

import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from parlour.server.persistence.devdb import throwaway_cluster
from tests.server.helpers import START_TIMEOUT, TIMEOUT, ServerProcess, free_port

CADDY = shutil.which("caddy") or "/usr/bin/caddy"

CADDYFILE = """\
{{
	admin off
	skip_install_trust
	local_certs
	http_port {http_port}
	https_port {https_port}
	storage file_system {storage}
}}

https://{host}:{https_port} {{
	tls internal
	encode gzip
	reverse_proxy {upstreams} {{
		lb_policy round_robin
		lb_try_duration 10s
		fail_duration 30s
		health_uri /readyz
		health_interval 1s
		header_down +X-Parlour-Upstream {{http.reverse_proxy.upstream.hostport}}
	}}
}}
"""
"""The docs' Caddyfile (docs/operating.md): TLS from Caddy's own CA (a real site drops
``tls internal`` and ``local_certs`` and gets a public certificate), websockets passed as they
are (Caddy needs nothing for them), a process that stops answering ``/readyz`` taken out of the
rotation, a request to a dead process retried on another for up to 10 s. The
``X-Parlour-Upstream`` header names the process that answered (for the tests; harmless)."""


@dataclass
class Stack:
    """A running stack: the public address, the processes behind it, Caddy's root certificate."""

    url: str
    processes: list[ServerProcess]
    root_certificate: Path
    caddy: subprocess.Popen[bytes]
    folder: Path
    database: str
    upstreams: dict[str, ServerProcess] = field(default_factory=dict)

    def client(self) -> httpx.Client:
        """An HTTPS client that trusts Caddy's CA (and nothing else)."""
        trust = ssl.create_default_context(cafile=str(self.root_certificate))
        return httpx.Client(base_url=self.url, verify=trust, timeout=TIMEOUT)


def caddyfile(host: str, https_port: int, http_port: int, storage: Path,
              upstreams: list[str]) -> str:
    return CADDYFILE.format(host=host, https_port=https_port, http_port=http_port,
                            storage=storage, upstreams=" ".join(upstreams))


@contextmanager
def tls_stack(folder: Path, processes: int = 2, host: str = "localhost",
              database: str | None = None, extra: tuple[str, ...] = ()) -> Iterator[Stack]:
    """Caddy on ``https://HOST:PORT`` in front of ``processes`` servers on one PostgreSQL
    (a new throwaway cluster unless ``database`` names one), each started as docs/operating.md
    says: ``--trusted-proxy`` the proxy's address, ``--allowed-host``, ``--secure-cookies``,
    ``--public-url``; ``extra``: more options for each)."""
    folder.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        url_of_db = database or stack.enter_context(throwaway_cluster())
        https_port = free_port()
        public = f"https://{host}:{https_port}"
        servers = []
        for number in range(processes):
            server = ServerProcess(
                folder / f"process-{number + 1}.db", db_url=url_of_db,
                log_path=folder / f"process-{number + 1}.log",
                extra_args=("--trusted-proxy", "127.0.0.1", "--allowed-host", host,
                            "--secure-cookies", "--public-url", public, *extra),
            )
            servers.append(server.start())
            stack.callback(server.stop)
        storage = folder / "caddy"
        config = folder / "Caddyfile"
        config.write_text(caddyfile(host, https_port, free_port(), storage,
                                    [f"127.0.0.1:{s.port}" for s in servers]))
        log = (folder / "caddy.log").open("ab")
        stack.callback(log.close)
        caddy = subprocess.Popen([CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                                 stdout=log, stderr=subprocess.STDOUT,
                                 env={"HOME": str(folder), "PATH": "/usr/bin:/bin"})
        stack.callback(_stop, caddy)
        root = storage / "pki" / "authorities" / "local" / "root.crt"
        result = Stack(public, servers, root, caddy, folder, url_of_db,
                       {f"127.0.0.1:{s.port}": s for s in servers})
        _wait_until_served(result)
        yield result


def _wait_until_served(stack: Stack) -> None:
    """Caddy has made its certificate and answers ``/readyz`` from every process."""
    deadline = time.monotonic() + START_TIMEOUT
    seen: set[str] = set()
    while time.monotonic() < deadline:
        if stack.caddy.poll() is not None:
            raise RuntimeError("caddy exited: " + (stack.folder / "caddy.log").read_text()[-2000:])
        if stack.root_certificate.exists():
            try:
                with stack.client() as client:
                    answer = client.get("/readyz")
                    if answer.status_code == 200:
                        seen.add(answer.headers.get("x-parlour-upstream", ""))
                        if seen >= set(stack.upstreams):
                            return
            except httpx.HTTPError:
                pass
        time.sleep(0.2)
    log = (stack.folder / "caddy.log").read_text()
    raise RuntimeError(f"the stack did not come up: {log[-2000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
