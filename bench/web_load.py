"""Load test of the web table: many websocket clients playing random moves at many tables.

    python bench/web_load.py                       # 200 tables, 20 s, a fresh server
    python bench/web_load.py --tables 50 --seconds 10 --think 0.2
    python bench/web_load.py --processes 3         # 1 vs 3 processes on one PostgreSQL
    python bench/web_load.py --signed-in 50        # also 50 rated tables between accounts
    python bench/web_load.py --stack --tables 20   # 1 process on SQLite vs the TLS stack

With ``--signed-in N`` a third phase follows the load phase: 2N accounts sign up and sign in
(Argon2id: the sign-up and sign-in latencies are reported, and a wrong password beside an
unknown username, which must take the same time), then play N rated tables with a clock at
once, each created by one account from its session and joined from the lobby by the other;
afterwards every finished rated game is checked to have stored exactly one rating change per
player.

With ``--processes N`` the run starts a throwaway PostgreSQL cluster (Debian's ``postgresql``)
and plays the load phase twice in the same run: on one server process, then on N processes
sharing that database, each table created on one process and its two seats connected to two
different processes, so that every move is pushed across processes (LISTEN/NOTIFY). "push" is
the time from the mover receiving its acknowledgement to the other seat receiving the new
state; the difference between the two phases is the extra delay of crossing processes.

It starts a real ``parlour serve`` process on 127.0.0.1 with a fresh SQLite database (or uses
``--url`` pointing at a server on this machine: loopback only), then runs two phases in the
same run: a reference phase with one table, and the load phase with ``--tables`` tables at
once. Each table has two seats, each its own websocket client; a seat whose turn it is waits
``--think`` seconds (a random 0.5x-1.5x of it, like a person or a bot deciding), then sends a
random legal move with the move number it saw. A small share of moves is sent twice with the
same client id, as a client does after a dropped connection. When a game ends the table is
replaced by a new one, until the phase's time is up.

With ``--stack`` the run plays the load phase twice in the same run: on one server process on
SQLite, then through the stack of docs/operating.md (Caddy terminating TLS in front of two
processes on one throwaway PostgreSQL, ``tests/stack.py``), over ``https`` and ``wss``.

Reported per phase: action round-trip latency (sending a move to receiving its
acknowledgement, which the server sends only after the move is committed to the database):
p50, p99 and max; acknowledged moves per second; errors; and, checked afterwards against every
table's record on the server, lost moves (acknowledged but not stored as sent) and duplicated
moves (stored more often than acknowledged, or a resend applied twice). Every request loop is
bounded by count and time, and all traffic stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import httpx
from websockets.asyncio.client import connect

LOOPBACK = {"127.0.0.1", "localhost", "::1"}
TRUST: ssl.SSLContext | None = None
"""The TLS stack's certificate authority, once a ``--stack`` phase runs behind Caddy."""
LIFTED = (
    # every simulated client comes from 127.0.0.1: lift one client's rate limits
    "--limit", "tables_burst=100000", "--limit", "connects_burst=100000",
    "--limit", "requests_burst=100000", "--limit", "open_tables_per_client=100000",
    "--limit", "connections_per_client=100000", "--limit", "messages_burst=100000",
    "--limit", "sign_ups_burst=100000", "--limit", "sign_in_free_per_address=100000",
    "--limit", "sign_ins_burst=100000", "--limit", "sign_ins_at_once_per_address=100000",
    "--limit", "password_hashes_per_client=100000",
)
GRACE = 10.0
"""Seconds a client keeps waiting for acknowledgements after its phase ends."""


@dataclass
class Phase:
    name: str
    latencies: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # when each latency was measured
    errors: list[str] = field(default_factory=list)
    games: int = 0
    resends: int = 0
    unanswered: int = 0
    acked: dict[str, dict[int, int]] = field(default_factory=dict)  # table -> seq -> action
    ack_times: dict[tuple[str, int], float] = field(default_factory=dict)  # (table, version)
    seen_times: dict[tuple[str, int], float] = field(default_factory=dict)  # by the other seat
    started: float = 0.0
    ended: float = 0.0
    finished_tables: list[str] = field(default_factory=list)


async def seat_client(url: str, phase: Phase, table: str, rng: random.Random, think: float,
                      deadline: float, resend_share: float) -> None:
    """Play one seat until the game ends or the phase's time is up, then collect the
    acknowledgements still due (for at most ``GRACE`` seconds)."""
    unacked: dict[str, tuple[float, int, int]] = {}  # client id -> (sent at, action, move no.)
    acted = -1
    mine: set[int] = set()  # versions this seat's own moves made
    tasks: set[asyncio.Task] = set()
    tls = {"ssl": TRUST} if url.startswith("wss://") else {}
    async with connect(url, max_size=2**22, open_timeout=30, compression=None, **tls) as ws:

        async def move(message: dict) -> None:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if time.monotonic() >= deadline:
                return
            action = rng.choice(message["legal"])["a"]
            client_id = f"{table}-{message['version']}-{rng.getrandbits(32):x}"
            body = json.dumps({"type": "act", "client_id": client_id, "steps": [action],
                               "at": message["version"]})
            unacked[client_id] = (time.perf_counter(), action, message["version"])
            await ws.send(body)
            if rng.random() < resend_share:  # a resend, as after a dropped connection
                phase.resends += 1
                await ws.send(body)

        finished = False
        while True:
            now = time.monotonic()
            if now >= deadline + GRACE or ((now >= deadline or finished) and not unacked):
                break
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, deadline + GRACE - now))
            except TimeoutError:
                break
            message = json.loads(raw)
            kind = message["type"]
            if kind == "state":
                if message["terminal"] and not finished and table not in phase.finished_tables:
                    phase.finished_tables.append(table)
                finished = message["terminal"]
                key = (table, message["version"])
                if message["version"] not in mine and key not in phase.seen_times:
                    phase.seen_times[key] = time.perf_counter()
                if message["legal"] and message["version"] > acted:
                    acted = message["version"]  # a state resent (someone came online): no new move
                    task = asyncio.create_task(move(message))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)
            elif kind == "ack":
                sent = unacked.pop(message["client_id"], None)
                if message["duplicate"]:
                    continue  # the resend of a move acknowledged just before
                if sent is None:
                    phase.errors.append(f"an acknowledgement for no move sent: {message}")
                    continue
                phase.latencies.append(time.perf_counter() - sent[0])
                mine.add(message["version"])
                phase.ack_times[(table, message["version"])] = time.perf_counter()
                phase.times.append(time.monotonic() - phase.started)
                seqs = phase.acked.setdefault(table, {})
                if message["seq"] in seqs or message["seq"] != sent[2]:
                    phase.errors.append(f"move {message['seq']} acknowledged wrongly at {table}")
                seqs[message["seq"]] = sent[1]
            elif kind == "error":
                unacked.pop(message.get("client_id") or "", None)
                phase.errors.append(f"{message['code']}: {message['message']}")
        for task in tasks:
            task.cancel()
    phase.unanswered += len(unacked)


async def table_loop(bases: list[str], phase: Phase, rng: random.Random, think: float,
                     deadline: float, resend_share: float, http: httpx.AsyncClient,
                     params: dict, delay: float, index: int,
                     players: tuple[httpx.AsyncClient, httpx.AsyncClient] | None = None) -> None:
    """Create a table, play it out with two seat clients, repeat until the deadline. With
    several server processes the table is created on one and its seats connect to two
    different ones (``bases``, taken in turn). With ``players`` (two signed-in accounts'
    clients) the table is rated, created by the first and taken from the lobby by the
    second."""
    await asyncio.sleep(delay)  # players arrive over the ramp-up, not all in one instant
    base = bases[index % len(bases)]
    seat_bases = [re.sub(r"^http", "ws", bases[(index + i) % len(bases)]) for i in (0, 1)]
    while time.monotonic() < deadline - 1.0:
        body: dict = {"game": "clobber", "params": params}
        if players is not None:
            body.update(rated=True, open=True, clock={"per_move": 600})
        reply = await (players[0] if players else http).post(f"{base}/api/tables", json=body)
        if reply.status_code != 201:
            phase.errors.append(f"create: {reply.status_code} {reply.text[:100]}")
            await asyncio.sleep(0.5)
            continue
        table = reply.json()
        if players is not None:
            seat = await players[1].post(f"{base}/api/tables/{table['table']}/seats/1")
            if seat.status_code != 200:
                phase.errors.append(f"seat: {seat.status_code} {seat.text[:100]}")
                continue
            urls = [table["url"], seat.json()["url"]]
        else:
            urls = [table["url"], table["invites"][0]["url"]]
        await asyncio.gather(*(
            seat_client(ws + "/ws" + u, phase, table["table"], random.Random(rng.random()),
                        think, deadline, resend_share)
            for ws, u in zip(seat_bases, urls, strict=True)
        ))
        phase.games += 1


async def verify(base: str, phase: Phase, http: httpx.AsyncClient) -> tuple[int, int]:
    """Lost and duplicated moves: the server's stored records against the acknowledgements."""
    lost = duplicated = 0
    for table, acked in phase.acked.items():
        record = (await http.get(f"{base}/api/watch/{table}/record")).json()
        stored = record["actions"]
        for seq, action in acked.items():
            if seq >= len(stored) or stored[seq] != action:
                lost += 1
        duplicated += max(0, len(stored) - len(acked))  # stored moves nobody was told of
    return lost, duplicated


async def accounts_for(base: str, count: int, phase: Phase) -> list[httpx.AsyncClient]:
    """``count`` accounts signed up and signed in again (each its own cookie jar), timing
    sign-ups, sign-ins, wrong passwords and unknown usernames (Argon2id each)."""
    password = "a load test's long passphrase"
    clients = [httpx.AsyncClient(base_url=base, timeout=60) for _ in range(count)]
    timings: dict[str, list[float]] = {"sign_up": [], "sign_in": [], "wrong_password": [],
                                       "unknown_user": []}

    async def timed(kind: str, client: httpx.AsyncClient, path: str, body: dict,
                    status: int) -> None:
        start = time.perf_counter()
        reply = await client.post(path, json=body)
        timings[kind].append(time.perf_counter() - start)
        if reply.status_code != status:
            phase.errors.append(f"{kind}: {reply.status_code} {reply.text[:100]}")

    tag = f"{random.getrandbits(24):06x}"
    names = [f"load{tag}{i}" for i in range(count)]
    await asyncio.gather(*(timed("sign_up", c, "/api/accounts",
                                 {"username": n, "password": password}, 201)
                           for c, n in zip(clients, names, strict=True)))
    await asyncio.gather(*(timed("sign_in", c, "/api/session",
                                 {"username": n, "password": password}, 200)
                           for c, n in zip(clients, names, strict=True)))
    async with httpx.AsyncClient(base_url=base, timeout=60) as guest:
        for i in range(min(10, count)):  # one at a time: the two answers' times side by side
            await timed("wrong_password", guest, "/api/session",
                        {"username": names[i], "password": "not the password"}, 401)
            await timed("unknown_user", guest, "/api/session",
                        {"username": f"nobody{tag}{i}", "password": "not the password"}, 401)
    phase.accounts = {k: [round(1000 * percentile(v, 0.5), 1),  # type: ignore[attr-defined]
                          round(1000 * percentile(v, 0.99), 1)] for k, v in timings.items()}
    return clients


async def rating_check(base: str, phase: Phase, http: httpx.AsyncClient) -> dict:
    """Every finished rated game: exactly one rating change per player stored."""
    counts = [len((await http.get(f"{base}/api/tables/{t}/ratings")).json()["changes"])
              for t in phase.finished_tables]
    return {"rated_games": len(counts), "with_two_changes": sum(c == 2 for c in counts),
            "other": [c for c in counts if c != 2]}


async def run_phase(name: str, bases: str | list[str], tables: int, seconds: float,
                    think: float, resend_share: float, seed: int, params: dict,
                    ramp: float = 0.0, signed_in: bool = False) -> Phase:
    phase = Phase(name)
    bases = [bases] if isinstance(bases, str) else bases
    base = bases[0]
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(timeout=30, limits=limits, verify=TRUST or True) as http:
        players = await accounts_for(base, 2 * tables, phase) if signed_in else []
        phase.started = time.monotonic()
        deadline = phase.started + seconds
        phase.seconds = seconds  # type: ignore[attr-defined]
        await asyncio.gather(*(
            table_loop(bases, phase, random.Random(rng.random()), think, deadline,
                       resend_share, http, params, ramp * i / tables, i,
                       (players[2 * i], players[2 * i + 1]) if signed_in else None)
            for i in range(tables)
        ))
        phase.ended = time.monotonic()
        lost, duplicated = await verify(base, phase, http)
        if signed_in:
            phase.ratings = await rating_check(base, phase, http)  # type: ignore[attr-defined]
        for client in players:
            await client.aclose()
    phase.lost, phase.duplicated = lost, duplicated  # type: ignore[attr-defined]
    return phase


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def spread(prefix: str, ms: list[float], *, most: bool = True) -> dict[str, float | None]:
    """The median, 99th percentile (and, with ``most``, the maximum) of ``ms`` as a report's
    ``PREFIXp50_ms``/``PREFIXp99_ms``/``PREFIXmax_ms`` fields (one summary for every bench)."""
    fields: dict[str, float | None] = {
        f"{prefix}p50_ms": round(percentile(ms, 0.50), 2),
        f"{prefix}p99_ms": round(percentile(ms, 0.99), 2),
    }
    if most:
        fields[f"{prefix}max_ms"] = round(max(ms), 2) if ms else None
    return fields


def report(phase: Phase) -> dict:
    ms = [v * 1000 for v in phase.latencies]
    push = [1000 * (phase.seen_times[k] - t) for k, t in phase.ack_times.items()
            if k in phase.seen_times]
    elapsed = min(phase.ended - phase.started, phase.seconds)  # type: ignore[attr-defined]
    return {
        "phase": phase.name,
        "moves": len(ms),
        "games": phase.games,
        **spread("", ms),
        "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
        "moves_per_s": round(len(ms) / elapsed, 1) if elapsed else None,
        **spread("push_", push, most=False),
        "resends": phase.resends,
        "errors": len(phase.errors),
        "unanswered": phase.unanswered,
        "lost": phase.lost,  # type: ignore[attr-defined]
        "duplicated": phase.duplicated,  # type: ignore[attr-defined]
        **({"accounts_ms_p50_p99": phase.accounts,  # type: ignore[attr-defined]
            "ratings": phase.ratings}  # type: ignore[attr-defined]
           if hasattr(phase, "ratings") else {}),
    }


def cpu_seconds(pid: int | None) -> float | None:
    """CPU time (user + system, all threads) the server process has used so far (Linux)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: Path, url: str | None = None, extra: tuple[str, ...] = ()
                 ) -> tuple[subprocess.Popen, str]:
    """A server on ``url`` (a PostgreSQL URL) or on a fresh SQLite file ``db`` (``extra``:
    more options of ``parlour serve``)."""
    port = free_port()
    log = db.with_suffix(".log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-m", "parlour.server", "--port", str(port),
         "--db", url or f"sqlite:///{db}",
         "--no-open", "--ai", "thread", "--ai-delay", "0", *LIFTED, *extra],
        stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120  # a busy machine starts Python slowly
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return proc, base
        time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def run(coroutine):
    """uvloop when installed (it comes with uvicorn[standard]): the clients cost less CPU."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coroutine)
    return uvloop.run(coroutine)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="tables played at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the load phase")
    parser.add_argument("--think", type=float, default=0.5,
                        help="mean seconds a seat waits before moving (0: as fast as possible)")
    parser.add_argument("--resend", type=float, default=0.02, help="share of moves sent twice")
    parser.add_argument("--ramp", type=float, default=2.0,
                        help="seconds over which the tables start (players arrive)")
    parser.add_argument("--size", default="5x6", help="Clobber board size")
    parser.add_argument("--url", help="an already running server on this machine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--signed-in", type=int, default=0, metavar="TABLES",
                        help="then a phase of this many rated tables between signed-in accounts")
    parser.add_argument("--processes", type=int, default=0,
                        help="compare 1 and N server processes on one throwaway PostgreSQL")
    parser.add_argument("--stack", action="store_true",
                        help="compare 1 process on SQLite with the TLS stack (Caddy, 2 processes, "
                        "PostgreSQL)")
    args = parser.parse_args()
    if args.stack:
        if not 1 <= args.tables <= 30:
            raise SystemExit("keep --tables within 1-30 with --stack (one client's websockets)")
        stack_run(args)
        return
    if args.processes:
        if not 1 <= args.processes <= 8:
            raise SystemExit("keep --processes within 1-8")
        processes_run(args)
        return
    if not 1 <= args.tables <= 2000 or not 0 < args.seconds <= 600 or not (
            0 <= args.signed_in <= 500):
        raise SystemExit("keep --tables within 1-2000, --signed-in within 0-500 and --seconds "
                         "within 0-600")
    proc = None
    load_before = os.getloadavg()[0]
    if args.url:
        if urlparse(args.url).hostname not in LOOPBACK:
            raise SystemExit("web_load only sends traffic to a server on this machine (127.0.0.1)")
        base = args.url.rstrip("/")
    else:
        folder = Path(tempfile.mkdtemp(prefix="parlour-web-load-"))
        proc, base = start_server(folder / "load.db")
    params = {"size": args.size}
    try:
        pid = proc.pid if proc is not None else None
        cpu0 = cpu_seconds(pid)
        reference = run(run_phase("reference: 1 table", base, 1, min(5.0, args.seconds),
                                          args.think, args.resend, args.seed, params))
        cpu1 = cpu_seconds(pid)
        load = run(run_phase(f"load: {args.tables} tables", base, args.tables, args.seconds,
                             args.think, args.resend, args.seed + 1, params, args.ramp))
        cpu2 = cpu_seconds(pid)
        signed = None
        if args.signed_in:
            signed = run(run_phase(f"signed in: {args.signed_in} rated", base, args.signed_in,
                                   args.seconds, args.think, args.resend, args.seed + 2,
                                   params, args.ramp, signed_in=True))
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=30)
    rows = [report(reference), report(load)] + ([report(signed)] if signed else [])
    if cpu0 is not None and cpu1 is not None and cpu2 is not None:
        # server CPU per acknowledged move: the cost that load on a busy machine cannot hide
        for row, used in ((rows[0], cpu1 - cpu0), (rows[1], cpu2 - cpu1)):
            row["server_cpu_ms_per_move"] = round(1000 * used / max(1, row["moves"]), 2)
    ratio = rows[1]["p99_ms"] / rows[0]["p50_ms"] if rows[0]["p50_ms"] else float("nan")
    if args.json:
        print(json.dumps({"phases": rows, "p99_over_reference_p50": round(ratio, 2),
                          "load_average_before": load_before}, indent=1))
    else:
        print(f"parlour web load: Clobber {args.size}, think {args.think} s, "
              f"resend share {args.resend}, ramp-up {args.ramp} s, {os.cpu_count()} cores, "
              f"load average before the run {load_before:.2f}")
        for row in rows:
            if "ratings" in row:
                print(f"  accounts (p50 / p99 ms): {row['accounts_ms_p50_p99']}; "
                      f"rated games finished {row['ratings']['rated_games']}, with exactly "
                      f"one change per player {row['ratings']['with_two_changes']}")
            print(f"  {row['phase']:<22} moves {row['moves']:>6}  games {row['games']:>5}  "
                  f"p50 {row['p50_ms']:>7} ms  p99 {row['p99_ms']:>7} ms  max {row['max_ms']} ms  "
                  f"{row['moves_per_s']} moves/s  resends {row['resends']}  "
                  f"server CPU {row.get('server_cpu_ms_per_move')} ms/move  "
                  f"errors {row['errors']}  unanswered {row['unanswered']}  "
                  f"lost {row['lost']}  duplicated {row['duplicated']}")
        print(f"  load p99 / reference p50: {ratio:.2f}")
        for error in (load.errors + reference.errors)[:5]:
            print("  error:", error)
    target = (rows[1]["p99_ms"] < 100 and rows[1]["lost"] == 0 and rows[1]["duplicated"] == 0
              and rows[1]["errors"] == 0 and rows[1]["unanswered"] == 0)
    verdict = "met" if target else "NOT met"
    print(f"  target (p99 < 100 ms; no move lost, duplicated, refused or unanswered): {verdict}")


def print_row(row: dict) -> None:
    print(f"  {row['phase']:<22} moves {row['moves']:>6}  p50 {row['p50_ms']:>7} ms  "
          f"p99 {row['p99_ms']:>7} ms  {row['moves_per_s']} moves/s  "
          f"push p50 {row['push_p50_ms']} ms  p99 {row['push_p99_ms']} ms  "
          f"errors {row['errors']}  unanswered {row['unanswered']}  "
          f"lost {row['lost']}  duplicated {row['duplicated']}")


def processes_run(args: argparse.Namespace) -> None:
    """One server process, then N, on one throwaway PostgreSQL, in the same run."""
    from parlour.server.persistence.devdb import throwaway_cluster

    load_before = os.getloadavg()[0]
    params = {"size": args.size}
    folder = Path(tempfile.mkdtemp(prefix="parlour-web-load-"))
    rows = []
    with throwaway_cluster(max_connections=100 + 40 * args.processes) as url:
        for count in sorted({1, args.processes}):
            procs = [start_server(folder / f"p{count}-{i}.db", url) for i in range(count)]
            try:
                phase = run(run_phase(
                    f"{count} process{'es' if count > 1 else ''}", [b for _p, b in procs],
                    args.tables, args.seconds, args.think, args.resend,
                    args.seed + count, params, args.ramp))
            finally:
                for proc, _base in procs:
                    proc.terminate()
                for proc, _base in procs:
                    proc.wait(timeout=30)
            rows.append(report(phase))
    if args.json:
        print(json.dumps({"phases": rows, "load_average_before": load_before}, indent=1))
        return
    print(f"parlour web load on PostgreSQL: {args.tables} tables, Clobber {args.size}, think "
          f"{args.think} s, {args.seconds} s a phase, {os.cpu_count()} cores, load average "
          f"before the run {load_before:.2f}")
    for row in rows:
        print_row(row)
    if len(rows) > 1:
        extra = rows[-1]["push_p50_ms"] - rows[0]["push_p50_ms"]
        print(f"  extra push delay across processes (p50): {extra:.2f} ms; moves/s ratio "
              f"{rows[-1]['moves_per_s'] / max(rows[0]['moves_per_s'], 1e-9):.2f}")
    sound = all(r["lost"] == 0 and r["duplicated"] == 0 for r in rows)
    print(f"  no move lost or duplicated: {'yes' if sound else 'NO'}")


def stack_run(args: argparse.Namespace) -> None:
    """One process on SQLite, then the TLS stack of docs/operating.md, in the same run."""
    global TRUST
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' stack helper
    from tests.stack import tls_stack

    load_before = os.getloadavg()[0]
    params = {"size": args.size}
    folder = Path(tempfile.mkdtemp(prefix="parlour-stack-load-"))
    rows = []
    proc, base = start_server(folder / "sqlite.db")
    try:
        rows.append(report(run(run_phase("1 process, SQLite", base, args.tables, args.seconds,
                                         args.think, args.resend, args.seed, params,
                                         args.ramp))))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    with tls_stack(folder / "stack", processes=2, extra=LIFTED) as stack:
        TRUST = ssl.create_default_context(cafile=str(stack.root_certificate))
        rows.append(report(run(run_phase("Caddy + 2 + PostgreSQL", stack.url, args.tables,
                                         args.seconds, args.think, args.resend,
                                         args.seed + 1, params, args.ramp))))
    if args.json:
        print(json.dumps({"phases": rows, "load_average_before": load_before}, indent=1))
        return
    print(f"parlour web load, one process against the TLS stack: {args.tables} tables, Clobber "
          f"{args.size}, think {args.think} s, {args.seconds} s a phase, {os.cpu_count()} "
          f"cores, load average before the run {load_before:.2f}")
    for row in rows:
        print_row(row)
    speed = rows[1]["moves_per_s"] / max(rows[0]["moves_per_s"], 1e-9)
    slow = rows[1]["p99_ms"] / max(rows[0]["p99_ms"], 1e-9)
    print(f"  stack / one process: moves/s {speed:.2f}, p99 {slow:.2f}")
    sound = all(r["lost"] == 0 and r["duplicated"] == 0 for r in rows)
    print(f"  no move lost or duplicated: {'yes' if sound else 'NO'}")


if __name__ == "__main__":
    main()
