"""Gumbel AlphaZero by self-play on the batched engines, on PyTorch CPU.

``games`` self-play games are stepped together: at every step one batched Gumbel search
(:class:`parlour.agents.learned.search.GumbelSearch`, the ``net`` agent's own search) runs for
all of them, ``simulations`` network calls each covering every game; every game then plays the
action its search chose (Gumbel noise on, so the games differ and explore), and a finished game
restarts at once so the batch stays full. Each position is stored with the search's improved
policy (``softmax(logits + sigma(completed_q))``) as the policy target and the game's result
for the player to move as the value target. Between steps the network trains on the replay
buffer, each position used ``reuse`` times on average, on a random mirror image of the board
each time.

The run lives in one folder (``out``):

- ``state.json``: the settings, the counters (steps, positions, games, updates), the wall and
  CPU seconds of training so far, the random generator's state;
- ``checkpoint.pt`` (weights and optimiser) and ``replay.npz``: the rest of what a resumed run
  needs; a run started again on the same folder resumes where the last checkpoint left it (the
  self-play games in progress then are started afresh);
- ``net.npz``: the latest network (a :mod:`parlour.agents.learned.network` file:
  ``parlour arena clobber --agents net:path=DIR/net.npz,medium``) and ``net-mNNN.npz``, the
  network after NNN minutes of training (the learning curve, ``bench/net_strength.py curve``);
- ``log.jsonl``: one line a minute: positions per second, losses and where the time went.

The time limit is the run's wall time (``minutes``, earlier sessions of a resumed run
included), and optionally its CPU time (``cpu_minutes``, the self-play processes' included);
``max_steps`` stops after a number of self-play steps instead, for a run that repeats exactly
from its seed.

**Every board at once** (``boards``, e.g. ``[[4, 4], [5, 6], [5, 7]]``): the network is the
size-independent one (:func:`parlour.agents.learned.network.any_board`: convolutions, the
value read from the planes pooled over the board). Each board has its own ``games`` self-play
games and its own replay buffer (``replay`` positions split between the boards, saved as
``replay-RxC.npz``); self-play steps the boards in turn, and each training minibatch comes from
one board drawn at random among those with data, on a random symmetry of it, its transposes
included (a 5x7 position trains the network as a 7x5 one too), so the network plays each board
and its transpose.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F

from parlour.agents.learned.games import SearchAdapter, adapter_for
from parlour.agents.learned.network import save as save_network
from parlour.agents.learned.search import GumbelConfig, GumbelSearch
from parlour.core import load_game
from parlour.rl.gumbel.model import PolicyValueNet, evaluator, export
from parlour.rl.gumbel.replay import Replay
from parlour.rl.gumbel.selfplay import SelfPlay


@dataclass
class TrainConfig:
    """Everything a run depends on (stored in ``state.json``; a resumed run keeps it)."""

    game: str = "clobber"
    params: dict[str, Any] = field(default_factory=dict)
    minutes: float = 60.0
    max_steps: int = 0
    """Stop after this many self-play steps (0: no limit but ``minutes``)."""
    cpu_minutes: float = 0.0
    """Stop once the run has used this much CPU time, its self-play processes' included (0:
    no such limit). On a machine shared with other work, wall time buys less computation:
    this bounds the computation itself (60 minutes of a 2-core machine: 120 CPU-minutes)."""
    seed: int = 0
    games: int = 256
    simulations: int = 32
    considered: int = 16
    trunk: str = "mlp"
    hidden: list[int] = field(default_factory=lambda: [256, 256, 256])
    channels: int = 32
    blocks: int = 3
    value_hidden: int = 64
    policy: str = "linear"
    """The policy head: ``linear`` or ``conv`` (a resnet trunk's logits square by square,
    where the game's actions are laid out so: Clobber, GobbleStones)."""
    lr: float = 1e-3
    weight_decay: float = 1e-4
    minibatch: int = 256
    replay: int = 200_000
    reuse: float = 4.0
    warmup: int = 4096
    value_mix: float = 0.0
    """Value target: ``(1 - value_mix) * outcome + value_mix * search value``."""
    rounds: bool = True
    """Self-play searches simulate each phase's survivors side by side (``GumbelConfig``)."""
    noisy_plies: int = 0
    """Gumbel noise (sampled candidates and moves) in the first ``noisy_plies`` moves of each
    self-play game only, the rest played by the search without noise, so that a position's
    outcome says more about its value (0: noise in every move, as in the paper)."""
    boards: list[list[int]] = field(default_factory=list)
    """``[rows, columns]`` boards to train one network for, all at once (empty: the board of
    ``params`` alone, with a network for that board only); see the module."""
    checkpoint_minutes: float = 5.0
    log_seconds: float = 60.0
    threads: int = 1
    workers: int = 1
    """Self-play processes; 1 plays in the training process itself (and repeats exactly from
    the seed under ``max_steps``), more run beside it and send it their games."""

    def spec(self, adapter: SearchAdapter) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "game": adapter.game.name,
            "config": adapter.config,
            "input_shape": list(adapter.observation_shape),
            "actions": adapter.num_actions,
            "trunk": self.trunk,
            "value_hidden": self.value_hidden,
        }
        if self.boards:  # one network for every board: nothing in it depends on the size
            boards = {(int(r), int(c)) for r, c in self.boards}
            boards |= {(c, r) for r, c in boards}  # trained on the transposes too
            spec.update(config={k: v for k, v in adapter.config.items()
                                if k not in ("rows", "columns")},
                        input_shape=list(adapter.observation_shape[:1]),
                        boards=[list(b) for b in sorted(boards)], value="pool")
            del spec["actions"]
        spec["hidden"] = list(self.hidden)
        if self.trunk == "resnet":
            spec.update(channels=self.channels, blocks=self.blocks)
        if self.policy == "conv":
            if self.trunk != "resnet" or adapter.square_policy is None:
                raise ValueError(f"a conv policy head needs the resnet trunk and a game whose "
                                 f"actions go square by square ({adapter.game.name} "
                                 f"{adapter.config})")
            per_square, extra = adapter.square_policy
            spec.update(policy="conv", per_square=per_square, extra_actions=extra)
        return spec

    def check(self) -> None:
        if self.trunk not in ("mlp", "resnet"):
            raise ValueError("trunk must be mlp or resnet")
        if self.policy not in ("linear", "conv"):
            raise ValueError("policy must be linear or conv")
        for name in ("games", "simulations", "considered", "minibatch", "replay", "workers"):
            if int(getattr(self, name)) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.workers > self.games:
            raise ValueError("more self-play processes than games")
        if self.minutes <= 0 and self.max_steps <= 0:
            raise ValueError("give a positive number of minutes (or of steps)")
        if not 0.0 <= self.value_mix <= 1.0:
            raise ValueError("value_mix must be from 0 to 1")
        if self.boards:
            if self.trunk != "resnet" or self.policy != "conv":
                raise ValueError("a network for every board needs the resnet trunk and the "
                                 "conv policy head")
            if self.workers != 1:
                raise ValueError("training on several boards plays in one process (workers 1)")
            if len(self.boards) > 16 or any(
                    len(b) != 2 or not all(1 <= int(x) <= 26 for x in b) for b in self.boards):
                raise ValueError("boards: at most 16 of rows x columns, each 1-26")
            if self.replay < len(self.boards):
                raise ValueError("replay must hold at least a position per board")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


ARCHITECTURE = ("game", "params", "trunk", "hidden", "channels", "blocks", "value_hidden",
                "policy", "boards")
"""Settings a resumed run may not change (the weights would not fit)."""


@dataclass
class Board:
    """One board a run trains on: its game's adapter, replay buffer and symmetries."""

    adapter: SearchAdapter
    replay: Replay
    symmetries: list[Any]
    file: str
    """The replay buffer's file in the run's folder."""


@dataclass
class Counters:
    steps: int = 0
    positions: int = 0
    games: int = 0
    updates: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    snapshots: list[int] = field(default_factory=list)


class Trainer:
    """One training run in ``config.out`` (see the module). ``log`` receives one line per
    report (the command prints them)."""

    def __init__(self, config: TrainConfig, out: Path, log: Callable[[str], None] = print) -> None:
        config.check()
        self.out = Path(out)
        self.out.mkdir(parents=True, exist_ok=True)
        self.log = log
        self.counters = Counters()
        state_file = self.out / "state.json"
        resumed = state_file.exists()
        saved: dict[str, Any] = {}
        if resumed:
            saved = json.loads(state_file.read_text(encoding="utf-8"))
            old = TrainConfig.from_dict(saved["config"])
            changed = [k for k in ARCHITECTURE if getattr(old, k) != getattr(config, k)]
            if changed:
                raise ValueError(f"{self.out} holds a run with other {', '.join(changed)}; "
                                 "resume it with the same settings or use another folder")
            self.counters = Counters(**saved["counters"])
        self.config = config
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        self.game = load_game(config.game, **config.params)
        self.adapter = adapter_for(self.game)
        self.spec = config.spec(self.adapter)
        self.net = PolicyValueNet(self.spec)
        self.optimiser = torch.optim.AdamW(self.net.parameters(), lr=config.lr,
                                           weight_decay=config.weight_decay)
        if config.boards:
            share = config.replay // len(config.boards)
            self.boards = []
            for rows, columns in config.boards:
                params = {k: v for k, v in config.params.items() if k != "size"}
                adapter = adapter_for(load_game(config.game, **{**params, "rows": int(rows),
                                                                "columns": int(columns)}))
                self.boards.append(Board(
                    adapter, Replay(share, adapter.observation_shape, adapter.num_actions),
                    adapter.symmetries(transposes=True), f"replay-{rows}x{columns}.npz"))
        else:
            self.boards = [Board(self.adapter, Replay(config.replay, self.adapter.observation_shape,
                                                      self.adapter.num_actions),
                                 self.adapter.symmetries(), "replay.npz")]
        self.replay = self.boards[0].replay
        self.rng = np.random.default_rng(config.seed)
        if resumed:
            checkpoint = torch.load(self.out / "checkpoint.pt", map_location="cpu",
                                    weights_only=True)
            self.net.load_state_dict(checkpoint["net"])
            self.optimiser.load_state_dict(checkpoint["optimiser"])
            for group in self.optimiser.param_groups:
                group["lr"] = config.lr
                group["weight_decay"] = config.weight_decay
            for board in self.boards:
                # a run carried to another machine as its checkpoint alone (the replay files
                # are tens of MB) refills its replay by self-play before training again
                if (self.out / board.file).exists():
                    board.replay.load(self.out / board.file)
                else:
                    self.log(f"no {board.file}: its replay fills again by self-play")
            self.rng.bit_generator.state = saved["rng"]
            self.log(f"resuming {self.out}: {self.counters.steps} steps, "
                     f"{self.counters.positions} positions, {self.counters.wall / 60:.1f} "
                     "minutes trained so far")
        self.times: dict[str, float] = {"training": 0.0}
        self.losses: list[tuple[float, float]] = []

    # -- learning ---------------------------------------------------------------------------
    def train_step(self) -> None:
        start = time.perf_counter()
        config = self.config
        board = self.boards[0]
        if len(self.boards) > 1:  # a board drawn among those with data
            ready = [b for b in self.boards if b.replay.size]
            board = ready[int(self.rng.integers(0, len(ready)))]
        obs, policy, legal, outcome, value = board.replay.sample(config.minibatch, self.rng)
        if board.symmetries:
            pick = int(self.rng.integers(0, len(board.symmetries) + 1))
            if pick:
                symmetry = board.symmetries[pick - 1]
                obs = symmetry.observation(obs)
                policy, legal = symmetry.policy(policy), symmetry.policy(legal)
        target = (1.0 - config.value_mix) * outcome + config.value_mix * value
        self.net.train()
        logits, predicted = self.net(torch.from_numpy(obs))
        logits = logits.masked_fill(~torch.from_numpy(legal), -1e9)
        policy_loss = -(torch.from_numpy(policy) * F.log_softmax(logits, dim=1)).sum(1).mean()
        value_loss = F.mse_loss(predicted, torch.from_numpy(target.astype(np.float32)))
        loss = policy_loss + value_loss
        self.optimiser.zero_grad()
        loss.backward()
        self.optimiser.step()
        self.counters.updates += 1
        self.losses.append((float(policy_loss.detach()), float(value_loss.detach())))
        self.times["training"] += time.perf_counter() - start

    # -- saving -----------------------------------------------------------------------------
    def save(self) -> None:
        """Write the checkpoint, the replay buffer, the state and the latest network (each
        file replaced whole, so a run stopped while saving resumes from the last one)."""
        def replace(name: str, write: Callable[[Path], object]) -> None:
            tmp = self.out / f".{name}.tmp"
            write(tmp)
            os.replace(tmp, self.out / name)

        replace("checkpoint.pt", lambda p: torch.save(
            {"net": self.net.state_dict(), "optimiser": self.optimiser.state_dict()}, p))

        for board in self.boards:
            def write_replay(p: Path, replay: Replay = board.replay) -> None:
                with p.open("wb") as handle:
                    replay.save(handle)  # type: ignore[arg-type]

            replace(board.file, write_replay)
        minute = round(self.counters.wall / 60)
        metadata = {
            "trained": {
                "method": "Gumbel AlphaZero self-play (parlour.rl.gumbel)",
                "wall_minutes": round(self.counters.wall / 60, 2),
                "cpu_minutes": round(self.counters.cpu / 60, 2),
                "steps": self.counters.steps,
                "positions": self.counters.positions,
                "games": self.counters.games,
                "updates": self.counters.updates,
                "seed": self.config.seed,
                "simulations": self.config.simulations,
                "considered": self.config.considered,
            }
        }
        weights = export(self.net)
        replace("net.npz", lambda p: save_network(p, {**self.spec, **metadata}, weights))
        if minute not in self.counters.snapshots:
            save_network(self.out / f"net-m{minute:03d}.npz", {**self.spec, **metadata}, weights)
            self.counters.snapshots.append(minute)
        state = {"config": asdict(self.config), "counters": asdict(self.counters),
                 "rng": self.rng.bit_generator.state}
        replace("state.json", lambda p: p.write_text(json.dumps(state, indent=1),
                                                     encoding="utf-8"))

    # -- the loop ---------------------------------------------------------------------------
    def _add(self, finished: int, data: tuple[np.ndarray, ...] | None,
             replay: Replay | None = None) -> int:
        if data is None:
            return 0
        (replay or self.replay).add(*data)
        self.counters.games += finished
        self.counters.positions += data[0].shape[0]
        return int(data[0].shape[0])

    def _weights(self) -> dict[str, np.ndarray]:
        return export(self.net)

    def run(self) -> Path:
        """Train until the time (or step) limit, saving every ``checkpoint_minutes``; returns
        the path of the latest network."""
        config = self.config
        counters = self.counters
        self.wall0 = time.perf_counter() - counters.wall
        self.cpu_others = 0.0  # CPU seconds of the self-play processes (workers > 1)
        self.cpu0 = time.process_time() - counters.cpu
        if counters.steps == 0:
            self.save()  # the untrained network: minute 0 of the learning curve
        self.next_save = counters.wall + 60 * config.checkpoint_minutes
        self.last_log = (time.perf_counter(), counters.positions, counters.cpu,
                         dict(self.times))
        self.credit = 0.0
        previous = signal.signal(signal.SIGTERM, _interrupt)
        try:
            if config.workers > 1:
                self._run_workers()
            else:
                self._run_here()
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM: keep what was learned
            self.log("stopped: saving the run so far (run again on the folder to resume)")
        finally:
            signal.signal(signal.SIGTERM, previous)
        self._clock()
        self._report()
        self.save()
        return self.out / "net.npz"

    def _clock(self) -> None:
        self.counters.wall = time.perf_counter() - self.wall0
        self.counters.cpu = time.process_time() - self.cpu0 + self.cpu_others

    def _done(self, steps_at_start: int) -> bool:
        self._clock()
        if self.config.max_steps:
            return self.counters.steps - steps_at_start >= self.config.max_steps
        if self.config.cpu_minutes and self.counters.cpu >= 60 * self.config.cpu_minutes:
            return True
        return self.counters.wall >= 60 * self.config.minutes

    def _learn(self, added: int) -> None:
        config = self.config
        if sum(b.replay.size for b in self.boards) >= min(config.warmup, config.replay):
            self.credit += config.reuse * added / config.minibatch
            while self.credit >= 1.0:
                self.train_step()
                self.credit -= 1.0

    def _housekeeping(self) -> None:
        now = time.perf_counter()
        if now - self.last_log[0] >= self.config.log_seconds:
            self._clock()
            self._report()
        if now - self.wall0 >= self.next_save:
            self._clock()
            self.save()
            self.next_save += 60 * self.config.checkpoint_minutes

    def _run_here(self) -> None:
        """Self-play in this process, alternating with training (repeats from the seed when
        stopped by ``max_steps``)."""
        plays = []
        for board in self.boards:  # a search and its games per board, stepped in turn
            search = GumbelSearch(board.adapter, evaluator(self.net),
                                  GumbelConfig(self.config.simulations, self.config.considered,
                                               1.0, rounds=self.config.rounds))
            plays.append((search, SelfPlay(board.adapter, search, self.config.games, self.rng,
                                           self.config.noisy_plies), board.replay))
        steps_at_start = self.counters.steps
        befores = [_times(search, play) for search, play, _replay in plays]
        while not self._done(steps_at_start):
            self.net.eval()
            turn = self.counters.steps % len(plays)
            search, play, replay = plays[turn]
            finished, data = play.step()
            self.counters.steps += 1
            added = self._add(finished, data, replay)
            after = _times(search, play)
            for key, value in after.items():
                self.times[key] = self.times.get(key, 0.0) + value - befores[turn][key]
            befores[turn] = after
            self._learn(added)
            self._housekeeping()

    def _run_workers(self) -> None:
        """Self-play in ``workers`` processes (the games split between them), each with a
        copy of the network refreshed every ``SYNC_SECONDS`` from a file this process writes;
        this process trains on what they send."""
        import multiprocessing
        from multiprocessing.connection import wait

        config = self.config
        context = multiprocessing.get_context("spawn")
        sync = self.out / "sync.npz"
        self._publish(sync)
        version = context.Value("l", 0)
        stop = context.Event()
        pipes: list[Any] = []
        processes = []
        share = [config.games // config.workers + (i < config.games % config.workers)
                 for i in range(config.workers)]
        for i in range(config.workers):
            ours, theirs = context.Pipe(duplex=False)
            seed = [config.seed, i, self.counters.steps]
            process = context.Process(target=_worker, args=(
                theirs, asdict(config), self.spec, seed, share[i], str(sync), version, stop),
                daemon=True)
            process.start()
            theirs.close()
            pipes.append(ours)
            processes.append(process)
        steps_at_start = self.counters.steps
        last_sync = time.perf_counter()
        try:
            while not self._done(steps_at_start):
                waited = time.perf_counter()
                ready = wait(pipes, timeout=1.0)
                self.times["waiting"] = self.times.get("waiting", 0.0) + (
                    time.perf_counter() - waited)
                if not ready and not any(p.is_alive() for p in processes):
                    raise RuntimeError("every self-play process has stopped")
                for pipe in ready:
                    try:
                        finished, data, stats = _receive(pipe)
                    except EOFError:
                        pipes.remove(pipe)
                        continue
                    self.counters.steps += int(stats.pop("steps"))
                    self.cpu_others += stats.pop("cpu")
                    for key, value in stats.items():
                        self.times[key] = self.times.get(key, 0.0) + value
                    self._learn(self._add(finished, data))
                if time.perf_counter() - last_sync >= SYNC_SECONDS:
                    self._publish(sync)
                    with version.get_lock():
                        version.value += 1
                    last_sync = time.perf_counter()
                self._housekeeping()
        finally:
            stop.set()
            deadline = time.perf_counter() + 30
            while pipes and time.perf_counter() < deadline:  # let blocked senders finish
                for pipe in wait(pipes, timeout=0.5):
                    try:
                        _finished, _data, stats = _receive(pipe)
                        self.cpu_others += stats["cpu"]
                    except EOFError:
                        pipes.remove(pipe)
            for process in processes:
                process.join(timeout=5)
                if process.is_alive():
                    process.terminate()
            sync.unlink(missing_ok=True)

    def _publish(self, path: Path) -> None:
        tmp = path.with_name(".sync.tmp")
        weights: dict[str, Any] = self._weights()
        with tmp.open("wb") as handle:
            np.savez(handle, **weights)
        os.replace(tmp, path)

    def _report(self) -> None:
        then, positions, cpu, times = self.last_log
        now = time.perf_counter()
        counters = self.counters
        span = max(now - then, 1e-9)
        parts = {key: self.times[key] - times.get(key, 0.0) for key in self.times}
        policy, value = (np.mean(self.losses, axis=0) if self.losses else (float("nan"),) * 2)
        self.losses = []
        entry = {
            "wall_minutes": round(counters.wall / 60, 3),
            "cpu_minutes": round(counters.cpu / 60, 3),
            "steps": counters.steps,
            "positions": counters.positions,
            "games": counters.games,
            "updates": counters.updates,
            "positions_per_second": round((counters.positions - positions) / span, 1),
            "cpu_per_second": round((counters.cpu - cpu) / span, 3),
            "policy_loss": round(float(policy), 4),
            "value_loss": round(float(value), 4),
            "seconds": {key: round(value, 2) for key, value in parts.items()},
        }
        with (self.out / "log.jsonl").open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")
        busy = sum(v for k, v in parts.items() if k != "waiting") or 1e-9
        shares = ", ".join(f"{k} {100 * v / busy:.0f}%" for k, v in parts.items()
                           if k != "waiting" and v >= 0.005 * busy)
        self.log(f"{counters.wall / 60:6.1f} min (cpu {counters.cpu / 60:5.1f}): "
                 f"{counters.games} games, {counters.positions} positions "
                 f"({entry['positions_per_second']:.0f}/s), losses policy {policy:.3f} "
                 f"value {value:.3f}; time: {shares}")
        self.last_log = (now, counters.positions, counters.cpu, dict(self.times))


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


SYNC_SECONDS = 3.0
"""How often self-play processes get the learner's latest weights."""


def _times(search: GumbelSearch, play: SelfPlay) -> dict[str, float]:
    t = search.times
    return {"search tree": t.tree, "engine": t.engine, "network": t.network,
            "bookkeeping": play.bookkeeping, "worlds": play.worlds}


def _receive(pipe: Any) -> tuple[int, tuple[np.ndarray, ...] | None, dict[str, float]]:
    message: tuple[int, tuple[np.ndarray, ...] | None, dict[str, float]] = pipe.recv()
    return message


def _worker(pipe: Any, config: dict[str, Any], spec: dict[str, Any], seed: list[int],
            games: int, sync: str, version: Any, stop: Any) -> None:
    """A self-play process: plays ``games`` games with the latest weights published in
    ``sync`` and sends back each step's finished games, its time by part and its CPU time."""
    settings = TrainConfig.from_dict(config)
    torch.set_num_threads(1)
    adapter = adapter_for(load_game(settings.game, **settings.params))
    net = PolicyValueNet(spec)
    net.eval()
    search = GumbelSearch(adapter, evaluator(net),
                          GumbelConfig(settings.simulations, settings.considered, 1.0,
                                       rounds=settings.rounds))
    play = SelfPlay(adapter, search, games, np.random.default_rng(seed), settings.noisy_plies)
    mine = -1
    before, cpu = _times(search, play), time.process_time()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the learner stops its workers itself
    while not stop.is_set():
        if version.value != mine:
            mine = version.value
            with np.load(sync, allow_pickle=False) as data:
                net.load_state_dict({k: torch.from_numpy(data[k]) for k in data.files})
        finished, positions = play.step()
        after, now = _times(search, play), time.process_time()
        stats: dict[str, float] = {key: value - before[key] for key, value in after.items()}
        stats.update(steps=1, cpu=now - cpu)
        before, cpu = after, now
        try:
            pipe.send((finished, positions, stats))
        except (BrokenPipeError, OSError):
            return
    pipe.close()


def train(config: TrainConfig, out: str | Path, log: Callable[[str], None] = print) -> Path:
    """Run (or resume) training in ``out``; returns the path of the latest network."""
    return Trainer(config, Path(out), log).run()
