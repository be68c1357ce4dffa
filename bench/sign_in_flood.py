"""An unrelated player's sign-in latency while one client floods the password hashing
(issue 62, item 2), beside the same latency with no flood, in one run.

    nice -n 10 python bench/sign_in_flood.py
    python bench/sign_in_flood.py --sign-ins 225 --rate 15 --sign-ups 60 --addresses 12

It starts a real ``parlour serve`` (the ``parlour`` command) on 127.0.0.1 with a fresh SQLite
database and the default limits, and gives each simulated client an address of its own on the
loopback network (127.0.0.x: the server counts a client by its address). Three phases:

1. **reference**: the unrelated player (127.0.0.2) signs in ``--probes`` times, one after the
   other, nothing else going on;
2. **sign-in flood**: one address (127.0.0.3) sends ``--sign-ins`` correct sign-ins at
   ``--rate`` a second (each sent on time, without waiting for the last answer), while the
   unrelated player signs in once a second;
3. **sign-up flood**: ``--sign-ups`` sign-ups at once, spread over ``--addresses`` addresses
   (127.0.0.10...), while the unrelated player signs in once a second.

Reported per phase: the unrelated player's sign-in latency (p50, p99, max, and how many of
its sign-ins were refused), the flood's answers by status, and how long the flood took. The
goal: under 2 s for the unrelated player during both floods (before the fair hashing queue,
10-28 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import free_port, spread

PASSWORD = "a long and unusual passphrase"
PLAYER = "127.0.0.2"
FLOODER = "127.0.0.3"


def start(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``parlour serve`` with the default limits (none lifted: the floods meet them)."""
    port = free_port()
    command = shutil.which("parlour") or str(Path(sys.executable).with_name("parlour"))
    env = {k: v for k, v in os.environ.items() if k != "PARLOUR_LIMITS"}
    log = (folder / "server.log").open("ab")
    proc = subprocess.Popen(
        [command, "serve", "--port", str(port), "--db", f"sqlite:///{folder / 'flood.db'}",
         "--no-open"], stdout=log, stderr=subprocess.STDOUT, env={**env, "PYTHONUNBUFFERED": "1"})
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return proc, base
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start: see " + str(folder / "server.log"))


def client(base: str, address: str) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=base, timeout=120,
                             transport=httpx.AsyncHTTPTransport(local_address=address))


async def sign_in(http: httpx.AsyncClient, username: str) -> tuple[int, float]:
    started = time.perf_counter()
    answer = await http.post("/api/session", json={"username": username, "password": PASSWORD})
    return answer.status_code, (time.perf_counter() - started) * 1000


async def probe(base: str, until: asyncio.Event, every: float, count: int | None = None
                ) -> list[tuple[int, float]]:
    """The unrelated player's sign-ins, one every ``every`` seconds, until ``until`` is set
    (or ``count`` of them)."""
    seen: list[tuple[int, float]] = []
    async with client(base, PLAYER) as http:
        while not until.is_set() and (count is None or len(seen) < count):
            seen.append(await sign_in(http, "unrelated"))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(until.wait(), every)
    return seen


async def sign_in_flood(base: str, n: int, rate: float) -> Counter[int]:
    async with client(base, FLOODER) as http:
        async def one(delay: float) -> int:
            await asyncio.sleep(delay)
            return (await sign_in(http, "flooder"))[0]

        return Counter(await asyncio.gather(*(one(k / rate) for k in range(n))))


async def sign_up_flood(base: str, n: int, addresses: int) -> Counter[int]:
    clients = [client(base, f"127.0.0.{10 + a}") for a in range(addresses)]

    async def one(k: int) -> int:
        answer = await clients[k % addresses].post(
            "/api/accounts", json={"username": f"flood-{k}", "password": PASSWORD})
        return answer.status_code

    try:
        return Counter(await asyncio.gather(*(one(k) for k in range(n))))
    finally:
        for c in clients:
            await c.aclose()


async def phase(name: str, base: str, flood: object | None) -> dict[str, object]:
    until = asyncio.Event()
    started = time.monotonic()
    if flood is None:
        seen = await probe(base, until, 0.5, count=ARGS.probes)
        statuses: Counter[int] = Counter()
    else:
        probing = asyncio.create_task(probe(base, until, 1.0))
        statuses = await flood  # type: ignore[misc]
        until.set()
        seen = await probing
    took = time.monotonic() - started
    ms = [latency for status, latency in seen if status == 200]
    refused = sum(status != 200 for status, _ in seen)
    return {"phase": name, "sign-ins": len(seen), "refused": refused, **spread("", ms),
            "flood": dict(sorted(statuses.items())), "seconds": round(took, 1)}


async def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="parlour-flood-"))
    proc, base = start(folder)
    try:
        for address, name in ((PLAYER, "unrelated"), (FLOODER, "flooder")):
            async with client(base, address) as http:
                made = await http.post("/api/accounts",
                                       json={"username": name, "password": PASSWORD})
                assert made.status_code == 201, made.text
        print(f"load average at start: {os.getloadavg()[0]:.1f} (2-core machine: "
              f"{os.cpu_count()} cores)")
        rows = [await phase("reference (no flood)", base, None),
                await phase(f"{ARGS.sign_ins} sign-ins at {ARGS.rate:g}/s from one address",
                            base, sign_in_flood(base, ARGS.sign_ins, ARGS.rate)),
                await phase(f"{ARGS.sign_ups} sign-ups from {ARGS.addresses} addresses", base,
                            sign_up_flood(base, ARGS.sign_ups, ARGS.addresses))]
    finally:
        proc.terminate()
        proc.wait(30)
    reference = rows[0]["p50_ms"] or 1.0
    print(f"{'phase':<44} {'n':>3} {'refused':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
          f" {'p50/ref':>7}  flood answers (seconds)")
    for row in rows:
        ratio = (row["p50_ms"] or 0) / reference  # type: ignore[operator]
        print(f"{row['phase']:<44} {row['sign-ins']:>3} {row['refused']:>7} "
              f"{row['p50_ms']:>8} {row['p99_ms']:>8} {row['max_ms']:>8} {ratio:>7.1f}  "
              f"{row['flood']} ({row['seconds']} s)")
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sign-ins", type=int, default=225)
    parser.add_argument("--rate", type=float, default=15.0, help="flood sign-ins a second")
    parser.add_argument("--sign-ups", type=int, default=60)
    parser.add_argument("--addresses", type=int, default=12)
    parser.add_argument("--probes", type=int, default=10,
                        help="the unrelated player's sign-ins in the reference phase")
    ARGS = parser.parse_args()
    asyncio.run(main())
