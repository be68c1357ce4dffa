"""Self-play positions per second, and where the time goes (issue 33).

    python bench/selfplay_speed.py                         # Clobber 5x6, the shipped network
    python bench/selfplay_speed.py --seconds 20 --games 256 --simulations 16

Runs the training's self-play (``parlour.rl.gumbel.selfplay.SelfPlay``: ``--games`` games
stepped together, one batched Gumbel search a move, ``--simulations`` network evaluations each)
with a fixed network, in alternating slices of two set-ups side by side in this process:

- **batched**: positions on the batched engine (``parlour.batch.ClobberBatch`` through
  ``ClobberAdapter``), the way training runs;
- **reference**: the same search and network over reference states (``ReferenceAdapter``: the
  per-move API, a clone and ``apply_action`` per child), the reference the batch is measured
  against.

The network is evaluated with PyTorch when it is installed (as in training), else with numpy.
For each it prints positions per second of wall time and per CPU-second of this process (the
machine is shared: CPU time is the steadier figure), and the split of the time between the
search's tree arithmetic, the engine, the network and bookkeeping.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import parlour
from parlour.agents.learned.games import ClobberAdapter, ReferenceAdapter
from parlour.agents.learned.network import SHIPPED, Network
from parlour.agents.learned.search import GumbelConfig, GumbelSearch
from parlour.rl.gumbel.selfplay import SelfPlay


def evaluator(network: Network):
    try:
        import torch

        from parlour.rl.gumbel.model import PolicyValueNet
        from parlour.rl.gumbel.model import evaluator as torch_evaluator
    except ImportError:
        return network, "numpy"
    torch.set_num_threads(1)
    net = PolicyValueNet(network.spec)
    net.load_state_dict({k: torch.from_numpy(v) for k, v in network.weights.items()})
    net.eval()
    return torch_evaluator(net), "PyTorch"


class Slot:
    def __init__(self, name: str, adapter, evaluate, games: int, config: GumbelConfig) -> None:
        self.name = name
        self.search = GumbelSearch(adapter, evaluate, config)
        self.play = SelfPlay(adapter, self.search, games, np.random.default_rng(0), 6)
        self.games = games
        self.wall = self.cpu = 0.0
        self.positions = 0

    def run(self, seconds: float) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall < seconds:
            self.play.step()
            self.positions += self.games
        self.wall += time.perf_counter() - wall
        self.cpu += time.process_time() - cpu

    def report(self) -> str:
        t = self.search.times
        parts = {"tree": t.tree, "engine": t.engine, "network": t.network,
                 "bookkeeping": self.play.bookkeeping}
        total = sum(parts.values()) or 1.0
        split = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in parts.items())
        return (f"  {self.name:9s} {self.positions / self.wall:8.0f} positions/s wall, "
                f"{self.positions / max(self.cpu, 1e-9):8.0f} per CPU-second "
                f"({self.positions} positions, {self.games} games at a time); {split}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--net", default=str(SHIPPED / "clobber-5x6.npz"))
    parser.add_argument("--games", type=int, default=256)
    parser.add_argument("--reference-games", type=int, default=32)
    parser.add_argument("--simulations", type=int, default=16)
    parser.add_argument("--considered", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=12.0, help="per set-up, in all")
    parser.add_argument("--slices", type=int, default=3)
    args = parser.parse_args()
    network = Network.load(args.net)
    evaluate, kind = evaluator(network)
    game = parlour.load_game("clobber")
    config = GumbelConfig(args.simulations, args.considered, 1.0)
    slots = [Slot("batched", ClobberAdapter(game), evaluate, args.games, config),
             Slot("reference", ReferenceAdapter(game), evaluate, args.reference_games, config)]
    print(f"## Clobber 5x6 self-play: {args.simulations} simulations a move, {args.considered} "
          f"considered, network {network!r} on {kind}; {args.slices} slices of "
          f"{args.seconds / args.slices:.1f} s each")
    for _ in range(args.slices):
        for slot in slots:
            slot.run(args.seconds / args.slices)
    for slot in slots:
        print(slot.report())
    fast, slow = slots
    wall = (fast.positions / fast.wall) / (slow.positions / slow.wall)
    cpu = (fast.positions / fast.cpu) / (slow.positions / slow.cpu)
    print(f"  batched / reference: {wall:.1f}x (wall), {cpu:.1f}x (CPU)")


if __name__ == "__main__":
    main()
