"""``GET /metrics`` (issue 64): read back through a real Prometheus scraping real server
processes, each process its own series; served only to the addresses ``--metrics-from``
allows, as seen past the trusted proxies; and what the metrics count."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from .helpers import PASSWORD, TIMEOUT, ServerProcess, account, token_of
from .prometheus import Prometheus

until = Prometheus.until


def two_seats_move(server: ServerProcess, moves: int) -> str:
    """A Clobber table of two people at ``server``, ``moves`` turns played; its id."""
    table = server.create("clobber", {"rows": 4, "columns": 4})
    with server.client(table["url"]) as white, \
            server.client(table["invites"][0]["url"]) as black:
        seats = [white, black]
        message = white.wait_state()
        for turn in range(moves):
            mover = seats[turn % 2]
            seen = mover.wait_state(lambda m, v=message["version"]: m["version"] == v)
            reply = mover.act([seen["legal"][0]["a"]], at=seen["version"])
            assert reply["type"] == "ack", reply
            message = white.wait_state(lambda m, v=seen["version"]: m["version"] > v)
    return table["table"]


def scrape(server: ServerProcess, source: str = "127.0.0.1") -> dict[str, float]:
    """``/metrics`` of ``server`` read from ``source``: ``name{labels}`` -> value, without
    the ``process`` label (checked to be there on every sample)."""
    with server.http_from(source) as http:
        reply = http.get("/metrics")
    assert reply.status_code == 200, reply.text
    out = {}
    for family in text_string_to_metric_families(reply.text):
        for sample in family.samples:
            labels = dict(sample.labels)
            assert labels.pop("process").endswith(f":{server.port}"), sample
            shown = ",".join(f"{k}={v}" for k, v in sorted(labels.items()))
            out[f"{sample.name}{{{shown}}}"] = sample.value
    return out


def test_prometheus_reads_each_process_moves_back(tmp_path: Path):
    one = ServerProcess(tmp_path / "one.db").start()
    two = ServerProcess(tmp_path / "two.db").start()
    try:
        targets = [f"127.0.0.1:{one.port}", f"127.0.0.1:{two.port}"]
        with Prometheus(tmp_path, targets) as prometheus:
            up = until(lambda: (found := prometheus.by_label("up", "instance"))
                       and len(found) == 2 and all(found.values()) and found,
                       what="both servers scraped")
            assert set(up) == set(targets)
            first = two_seats_move(one, 1)
            second = two_seats_move(two, 2)
            assert first != second
            expected = {f":{one.port}": 1.0, f":{two.port}": 2.0}

            def moved() -> dict[str, float]:
                found = prometheus.by_label('parlour_moves_total{game="clobber"}', "process")
                by_port = {":" + p.rsplit(":", 1)[1]: v for p, v in found.items()}
                return found if by_port == expected else {}

            series = until(moved, what=f"the moves counted by process: {expected}")
            assert len(series) == 2  # each process its own series, told apart by its label
            timed = until(lambda: (found := prometheus.by_label(
                "parlour_move_seconds_count", "process")) and sorted(found.values()) == [
                1.0, 2.0] and found, what="each move timed")
            assert set(timed) == set(series)
    finally:
        one.stop()
        two.stop()


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server serving its metrics to 127.0.0.1 and 127.0.0.3 only, behind a trusted proxy
    at 127.0.0.4."""
    folder = tmp_path_factory.mktemp("metrics-from")
    server = ServerProcess(folder / "parlour.db", extra_args=(
        "--metrics-from", "127.0.0.1", "--metrics-from", "127.0.0.3/32",
        "--trusted-proxy", "127.0.0.4")).start()
    yield server
    server.stop()


def status_from(server: ServerProcess, source: str, headers: dict[str, str] | None = None
                ) -> int:
    with server.http_from(source) as http:
        return http.get("/metrics", headers=headers or {}).status_code


def test_metrics_only_to_the_addresses_allowed(guarded: ServerProcess):
    assert status_from(guarded, "127.0.0.1") == 200
    assert status_from(guarded, "127.0.0.3") == 200
    with guarded.http_from("127.0.0.2") as http:
        refused = http.get("/metrics")
    assert refused.status_code == 403 and "--metrics-from" in refused.text
    assert "parlour_" not in refused.text
    assert status_from(guarded, "127.0.0.5") == 403
    # the rest of the server still answers that address
    with guarded.http_from("127.0.0.2") as http:
        assert http.get("/api/games").status_code == 200


def test_behind_the_trusted_proxy_the_forwarded_client_is_checked(guarded: ServerProcess):
    proxy = "127.0.0.4"
    assert status_from(guarded, proxy) == 403  # the proxy's own address is not allowed
    assert status_from(guarded, proxy, {"X-Forwarded-For": "127.0.0.3"}) == 200
    assert status_from(guarded, proxy, {"X-Forwarded-For": "203.0.113.9"}) == 403
    # the client the proxy saw is the rightmost hop: what came before it is the client's say
    assert status_from(guarded, proxy, {"X-Forwarded-For": "127.0.0.1, 203.0.113.9"}) == 403
    assert status_from(guarded, proxy, {"X-Forwarded-For": "203.0.113.9, 127.0.0.3"}) == 200


def test_a_proxy_nobody_declared_cannot_pass_its_clients_off_as_local(guarded: ServerProcess):
    # an allowed address that forwards for someone else (a local proxy left out of
    # --trusted-proxy): whoever asked it is unknown, so nothing is served
    assert status_from(guarded, "127.0.0.1", {"X-Forwarded-For": "203.0.113.9"}) == 403
    assert status_from(guarded, "127.0.0.1", {"Forwarded": "for=203.0.113.9"}) == 403
    assert status_from(guarded, "127.0.0.1", {"X-Real-IP": "203.0.113.9"}) == 403
    assert status_from(guarded, "127.0.0.1", {"X-Forwarded-For": "127.0.0.1"}) == 200


def test_by_default_this_machine_only_and_no_metrics_means_none(tmp_path: Path):
    server = ServerProcess(tmp_path / "default.db").start()
    quiet = ServerProcess(tmp_path / "quiet.db", extra_args=("--no-metrics",)).start()
    try:
        assert status_from(server, "127.0.0.2") == 200  # 127.0.0.0/8 is this machine
        assert status_from(quiet, "127.0.0.1") == 404
        two_seats_move(quiet, 1)  # plays as before
    finally:
        server.stop()
        quiet.stop()


@pytest.mark.parametrize("value", ["nonsense", "10.0.0.0/99", ""])
def test_a_wrong_metrics_from_is_refused_before_starting(value: str, tmp_path: Path):
    done = subprocess.run(
        [sys.executable, "-m", "parlour.server", "--no-open", "--db", str(tmp_path / "x.db"),
         "--metrics-from", value], capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 2
    assert "--metrics-from" in done.stderr and "not an address or a network" in done.stderr
    assert not (tmp_path / "x.db").exists()


# -- what they count -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def counted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("counted") / "parlour.db").start()
    yield server
    server.stop()


def test_websockets_and_live_tables_are_gauges(counted: ServerProcess):
    before = scrape(counted)
    assert before["parlour_websockets{}"] == 0
    table = counted.create("clobber", {"rows": 3, "columns": 4})
    with counted.client(table["url"]) as white, \
            counted.client(table["invites"][0]["url"]) as black:
        white.wait_state()
        black.wait_state()
        during = scrape(counted)
        assert during["parlour_websockets{}"] == 2
        assert during["parlour_tables_live{}"] >= 1
    until(lambda: scrape(counted)["parlour_websockets{}"] == 0, what="the sockets closed")


def test_sign_ins_are_counted_by_result(counted: ServerProcess):
    account(counted, "metric-reader").close()
    before = scrape(counted)
    with httpx.Client(base_url=counted.base, timeout=TIMEOUT) as browser:
        for password in (PASSWORD, "not the passphrase", PASSWORD):
            browser.post("/api/session", json={"username": "metric-reader",
                                               "password": password})
        browser.post("/api/session", json={"username": 5})
    after = scrape(counted)

    def more(result: str) -> float:
        key = f"parlour_sign_ins_total{{method=password,result={result}}}"
        return after.get(key, 0) - before.get(key, 0)

    assert (more("ok"), more("refused"), more("invalid")) == (2, 1, 1)


def test_computer_moves_database_calls_and_moves_counted(counted: ServerProcess):
    before = scrape(counted)
    table = counted.create("clobber", {"rows": 2, "columns": 4},
                           seats=[{"kind": "me"}, {"kind": "ai", "agent": "random"}])
    with counted.client(table["url"]) as me:
        message = me.wait_state()
        assert me.act([message["legal"][0]["a"]], at=0)["type"] == "ack"
        me.wait_state(lambda m: m["version"] >= 2)  # the computer answered
    after = scrape(counted)
    key = "parlour_moves_total{game=clobber}"
    assert after[key] - before.get(key, 0) == 2  # the person's and the computer's
    timed = "parlour_move_seconds_count{}"
    assert after[timed] - before.get(timed, 0) == 1  # only a person's move is timed
    waited = "parlour_ai_wait_seconds_count{outcome=moved}"
    assert after[waited] - before.get(waited, 0) == 1
    stored = "parlour_db_seconds_count{operation=append_many}"
    assert after[stored] - before.get(stored, 0) >= 1
    token = token_of(table["url"])
    assert counted.get(f"/api/play/{token}").status_code == 200
