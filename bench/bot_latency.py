"""Bot move latency on the Bot API: from a bot sending its move to its opponent's game stream
showing it, with many bot games at once (issue 31).

    nice -n 10 python bench/bot_latency.py                 # 1 game, then 50 at once, 20 s each
    python bench/bot_latency.py --games 20 --seconds 10 --think 0

It starts a real ``parlour serve`` process on 127.0.0.1 with a fresh SQLite database, signs up
two bot accounts per game (each with a ``bot:play`` token), and runs two phases in the same
run: a reference phase with one game, and the load phase with ``--games`` games at once. In
each game one bot challenges the other, which accepts; both follow their game stream
(``GET /api/bot/game/{id}/stream``, through :class:`parlour.client.BotClient`) and, when their
seat is to act, wait ``--think`` seconds (0.5x-1.5x at random, like a program deciding) and
send a random legal move (``POST /api/bot/game/{id}/move``). A finished game is replaced by a
new challenge until the phase's time is up.

A third phase plays the same number of games between websocket seats (``bench/web_load.py``'s
clients, the web table's own protocol) on the same server, as the reference for the load.

Reported per phase: the latency from sending a move to the opponent's stream receiving the
state that shows it (p50, p99, max), the move request's own round trip (sent to its answer,
which comes after the move is committed), moves per second, refused moves, and the server's CPU
seconds. Everything stays on 127.0.0.1; every loop is bounded by the phase's time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from parlour.client import BotClient, RequestRefused
from web_load import cpu_seconds, run, spread, start_server
from web_load import report as web_report
from web_load import run_phase as web_phase

PASSWORD = "a long and unusual passphrase"
GRACE = 10.0
"""Seconds a phase waits for its games' last lines after its time is up."""


@dataclass
class Phase:
    name: str
    seconds: float
    think: float
    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    seen: dict[tuple[str, int], float] = field(default_factory=dict)
    round_trips: list[float] = field(default_factory=list)
    refused: int = 0
    reasons: dict[str, int] = field(default_factory=dict)
    games: int = 0
    started: float = 0.0
    ended: float = 0.0


async def bot_token(base: str, name: str) -> str:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        made = await http.post("/api/accounts", json={"username": name, "password": PASSWORD})
        made.raise_for_status()
        (await http.post("/api/account/bot")).raise_for_status()
        token = await http.post("/api/tokens", json={"name": "bench", "scopes": ["bot:play"]})
        token.raise_for_status()
        return str(token.json()["token"])


async def seat(client: BotClient, table: str, phase: Phase, rng: random.Random) -> None:
    """Follow one game's stream for one bot, moving at random when its seat is to act (once
    per move number: a state is sent again when, say, a seat comes online)."""
    moved_at = -1
    async for line in client.game(table):
        if line.get("type") != "state":
            continue
        now = time.perf_counter()
        version = line["version"]
        for key in [k for k in phase.sent if k[0] == table and k[1] < version
                    and k not in phase.seen]:
            phase.seen[key] = now
        if line["terminal"]:
            return
        if line["to_act"] != line["viewer"] or not line["legal"] or version == moved_at:
            continue
        moved_at = version
        if phase.think:
            await asyncio.sleep(phase.think * (0.5 + rng.random()))
        move = rng.choice(line["legal"])["a"]
        start = time.perf_counter()
        phase.sent[(table, version)] = start
        try:
            await client.move(table, move, version)
            phase.round_trips.append(time.perf_counter() - start)
        except RequestRefused as exc:
            phase.refused += 1
            phase.reasons[str(exc)[:80]] = phase.reasons.get(str(exc)[:80], 0) + 1
            phase.sent.pop((table, version), None)


async def pair(base: str, tokens: tuple[str, str], opponent: str, phase: Phase,
               rng: random.Random) -> None:
    """One pair of bots playing game after game until the phase's time is up."""
    async with BotClient(base, tokens[0]) as first, BotClient(base, tokens[1]) as second:
        while time.perf_counter() < phase.started + phase.seconds:
            challenge = await first.challenge(opponent, "clobber", clock={"per_move": 60})
            table = (await second.accept(challenge["id"]))["table"]
            await asyncio.gather(seat(first, table, phase, rng), seat(second, table, phase, rng))
            phase.games += 1


async def run_phase(base: str, name: str, tokens: list[tuple[str, str, str]], seconds: float,
                    think: float, seed: int) -> Phase:
    phase = Phase(name, seconds, think)
    phase.started = time.perf_counter()
    tasks = [asyncio.create_task(pair(base, (a, b), b_name, phase, random.Random(seed + i)))
             for i, (a, b, b_name) in enumerate(tokens)]
    done, pending = await asyncio.wait(tasks, timeout=seconds + GRACE)
    for task in pending:
        task.cancel()
    for task in pending:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    for task in done:
        if task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    phase.ended = time.perf_counter()
    return phase


def report(phase: Phase, cpu: float | None) -> dict[str, object]:
    latency = [1000 * (phase.seen[k] - t) for k, t in phase.sent.items() if k in phase.seen]
    trips = [1000 * t for t in phase.round_trips]
    elapsed = phase.ended - phase.started
    return {
        "phase": phase.name,
        "moves": len(latency),
        "games": phase.games,
        **spread("opponent_sees_", latency),
        **spread("move_request_", trips, most=False),
        "moves_per_s": round(len(latency) / elapsed, 1) if elapsed else None,
        "refused": phase.refused,
        "refused_why": phase.reasons,
        "server_cpu_s": None if cpu is None else round(cpu, 2),
    }


async def main_async(args: argparse.Namespace, base: str, pid: int) -> list[dict[str, object]]:
    names = [(f"bench-a{i}", f"bench-b{i}") for i in range(args.games)]
    tokens = []
    for a, b in names:
        tokens.append((await bot_token(base, a), await bot_token(base, b), b))
    rows = []
    for name, count in (("reference: 1 game", 1), (f"load: {args.games} games at once",
                                                     args.games)):
        before = cpu_seconds(pid)
        phase = await run_phase(base, name, tokens[:count], args.seconds, args.think, args.seed)
        after = cpu_seconds(pid)
        rows.append(report(phase, None if before is None or after is None else after - before))
        print(json.dumps(rows[-1]), flush=True)
    # the reference: the same number of games between two websocket seats (web_load's
    # clients), on the same server in the same run; "sent to the other seat" is its move's
    # round trip (sent to acknowledged) plus the push (acknowledged to the other seat's state)
    before = cpu_seconds(pid)
    web = web_report(await web_phase(f"websocket seats: {args.games} tables", base, args.games,
                                     args.seconds, args.think, 0.0, args.seed, {}))
    after = cpu_seconds(pid)
    rows.append({key: web[key] for key in ("phase", "moves", "games", "p50_ms", "p99_ms",
                                           "push_p50_ms", "push_p99_ms", "moves_per_s",
                                           "errors", "lost", "duplicated")}
                | {"server_cpu_s": None if before is None or after is None
                   else round(after - before, 2)})
    print(json.dumps(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="bot games at once (load phase)")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--think", type=float, default=0.2,
                        help="seconds a bot waits before each move (0.5x-1.5x at random)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 600 or not 0 <= args.think <= 10:
        raise SystemExit("--games 1..500, --seconds up to 600, --think 0..10")
    with tempfile.TemporaryDirectory() as folder:
        proc, base = start_server(Path(folder) / "bench.db",
                                  extra=("--limit", "token_requests_burst=100000"))
        try:
            rows = run(main_async(args, base, proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    reference, load, web = rows
    one, many = reference["opponent_sees_p50_ms"], load["opponent_sees_p50_ms"]
    ratio = many / one if one else float("nan")  # type: ignore[operator]
    print(f"bot move latency, sent to the opponent's stream: "
          f"p50 {load['opponent_sees_p50_ms']} ms, p99 {load['opponent_sees_p99_ms']} ms "
          f"with {args.games} games at once ({ratio:.2f}x the p50 of one game alone, "
          f"{reference['opponent_sees_p50_ms']} ms)")
    print(f"websocket seats, {args.games} tables at once in the same run: round trip p50 "
          f"{web['p50_ms']} ms + push p50 {web['push_p50_ms']} ms "
          f"(p99 {web['p99_ms']} + {web['push_p99_ms']} ms)")


if __name__ == "__main__":
    main()
