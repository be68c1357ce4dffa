"""The cost of the metrics per move (issue 64), with and without them in the same run.

    python bench/metrics_cost.py                   # 8 rounds of 150 moves on each server
    python bench/metrics_cost.py --rounds 4 --moves 60 --hook-moves 100000

Two measures, both printed:

1. The whole server. Two ``parlour serve`` processes on fresh SQLite files, started together:
   one as by default (metrics recorded, ``/metrics`` served), one with ``--no-metrics``. The
   rounds alternate between them (which one goes first alternates too), each round one client
   playing ``--moves`` Clobber moves at one table of two seats over websockets (a new table
   when a game ends), each move sent once the mover has seen the position. Per server: the
   move round-trip (sending a move to its acknowledgement, which comes once it is stored):
   p50 and p99; the server's CPU time per move (from /proc: user + system, all threads, over
   the rounds only); and the difference of the two. ``/metrics`` is scraped once a round from
   the measured server, as Prometheus would, so the cost of writing the page counts too.
2. The hooks alone, in this process: what one websocket move runs of the metrics (its
   frame marked received, the turn counted and timed, one database call timed on the store's
   thread) ``--hook-moves`` times, with the metrics on and off: microseconds per move.

On a shared machine the whole-server figures move by more than the metrics cost between
rounds; the spread of the rounds' medians is printed beside them so the difference can be
read against it. The hooks' figure is the cost itself.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import cpu_seconds, run, spread, start_server

PARAMS = {"rows": 5, "columns": 6}


async def play(base: str, moves: int, rng: random.Random) -> list[float]:
    """``moves`` random Clobber moves at fresh tables of two seats on ``base``: the round
    trips, in seconds."""
    ws_base = base.replace("http://", "ws://")
    times: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while len(times) < moves:
            made = (await http.post("/api/tables", json={"game": "clobber", "params": PARAMS}))
            made.raise_for_status()
            table = made.json()
            links = [table["url"], table["invites"][0]["url"]]
            for invite in table["invites"]:
                (await http.get("/api/play/" + invite["url"].rsplit("/", 1)[1])
                 ).raise_for_status()
            async with connect(ws_base + "/ws" + links[0]) as white, \
                    connect(ws_base + "/ws" + links[1]) as black:
                seats = [white, black]
                latest: list[dict] = [await state_of(white), await state_of(black)]
                while len(times) < moves and not latest[0].get("terminal"):
                    mover = latest[0]["to_act"]
                    seen = latest[mover]
                    while seen["version"] < latest[0]["version"]:
                        seen = latest[mover] = await state_of(seats[mover])
                    action = rng.choice(seen["legal"])["a"]
                    key = f"m{len(times)}-{time.monotonic_ns()}"
                    sent = time.perf_counter()
                    await seats[mover].send(json.dumps({"type": "act", "client_id": key,
                                                        "steps": [action],
                                                        "at": seen["version"]}))
                    while True:
                        reply = json.loads(await seats[mover].recv())
                        if reply["type"] == "state":
                            latest[mover] = reply
                        elif reply.get("client_id") == key:
                            break
                    if reply["type"] != "ack":
                        raise SystemExit(f"move refused: {reply}")
                    times.append(time.perf_counter() - sent)
                    while latest[0]["version"] <= seen["version"]:
                        latest[0] = await state_of(white)
    return times


async def state_of(ws) -> dict:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "state":
            return message


def whole_server(rounds: int, moves: int) -> dict[str, dict[str, float | None]]:
    folder = Path(tempfile.mkdtemp(prefix="parlour-metrics-cost-"))
    servers = {"with metrics": start_server(folder / "with.db"),
               "without": start_server(folder / "without.db", extra=("--no-metrics",))}
    results: dict[str, list[float]] = {name: [] for name in servers}
    medians: dict[str, list[float]] = {name: [] for name in servers}
    cpu: dict[str, float] = dict.fromkeys(servers, 0.0)
    rng = random.Random(64)
    try:
        for _proc, base in servers.values():  # warm up: imports, first tables
            run(play(base, 20, rng))
        order = list(servers)
        for number in range(rounds):
            for name in order if number % 2 == 0 else order[::-1]:
                proc, base = servers[name]
                before = cpu_seconds(proc.pid) or 0.0
                times = run(play(base, moves, rng))
                httpx.get(base + "/metrics", timeout=60)  # a scrape a round (404 without)
                cpu[name] += (cpu_seconds(proc.pid) or 0.0) - before
                results[name] += times
                medians[name].append(statistics.median(times) * 1000)
    finally:
        for proc, _base in servers.values():
            proc.terminate()
            proc.wait(timeout=30)
    out: dict[str, dict[str, float | None]] = {}
    for name, times in results.items():
        out[name] = {
            **spread("move_", [t * 1000 for t in times], most=False),
            "rounds_p50_spread_ms": round(max(medians[name]) - min(medians[name]), 2),
            "cpu_us_per_move": round(1e6 * cpu[name] / len(times), 1),
            "moves": len(times),
        }
    return out


def hooks(moves: int) -> dict[str, float]:
    """Microseconds per move of what the metrics add to one websocket move, on and off."""
    from parlour.server import metrics

    def append_many() -> None:
        """Stands for the store's write (its own cost is not the metrics')."""

    out = {}
    for on in (True, False, True, False):
        metrics.configure(on=on)
        start = time.perf_counter()
        for _ in range(moves):
            metrics.received()
            metrics.db_call(append_many)()
            metrics.move_stored("clobber", True)
        out["on" if on else "off"] = 1e6 * (time.perf_counter() - start) / moves
    metrics.configure(on=True)
    return {"hooks_on_us_per_move": round(out["on"], 2),
            "hooks_off_us_per_move": round(out["off"], 2),
            "metrics_us_per_move": round(out["on"] - out["off"], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--moves", type=int, default=150, help="moves a round on each server")
    parser.add_argument("--hook-moves", type=int, default=200_000)
    args = parser.parse_args()
    if not (1 <= args.rounds <= 100 and 10 <= args.moves <= 10_000
            and 1000 <= args.hook_moves <= 10_000_000):
        parser.error("--rounds 1..100, --moves 10..10000, --hook-moves 1000..10000000")
    served = whole_server(args.rounds, args.moves)
    for name, fields in served.items():
        print(f"{name:>13}: " + "  ".join(f"{k}={v}" for k, v in fields.items()))
    on, off = served["with metrics"], served["without"]
    assert on["move_p50_ms"] is not None and off["move_p50_ms"] is not None
    assert on["cpu_us_per_move"] is not None and off["cpu_us_per_move"] is not None
    print(f"   difference: move_p50_ms={on['move_p50_ms'] - off['move_p50_ms']:+.2f}  "
          f"cpu_us_per_move={on['cpu_us_per_move'] - off['cpu_us_per_move']:+.1f}")
    print("        hooks: " + "  ".join(f"{k}={v}" for k, v in hooks(args.hook_moves).items()))


if __name__ == "__main__":
    main()
