"""GobbleStones self-play positions per CPU-second: the batched engine under the search
against reference states (issue 66).

    python bench/gobblestones_selfplay_speed.py
    python bench/gobblestones_selfplay_speed.py --games 64 --simulations 8 --seconds 30

Runs the training's self-play (``parlour.rl.gumbel.selfplay.SelfPlay``) for two-player
GobbleStones in alternating slices of two set-ups in this process, each with a network of the
same shape and random weights (PyTorch on one thread when installed, as in training, else
numpy; only the speed is measured):

- **batched**: ``GobbleStonesAdapter``: each search starts from worlds drawn from the mover's
  view, then runs on ``parlour.batch.GobbleStonesBatch`` arrays, the tile draws sampled in the
  tree (the way training runs now);
- **reference**: ``ReferenceAdapter``: the same search on reference states (a clone and
  ``apply_action`` per child), the way it ran before.

It prints positions per second of wall time and per CPU-second of this process (the machine is
shared: CPU time is the steadier figure), and where the time went.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import parlour
from parlour.agents.learned.games import GobbleStonesAdapter, ReferenceAdapter, SearchAdapter
from parlour.agents.learned.network import Network
from parlour.agents.learned.search import GumbelConfig, GumbelSearch
from parlour.rl.gumbel.selfplay import SelfPlay


def network_for(adapter: SearchAdapter, channels: int, blocks: int) -> Network:
    spec = {"trunk": "resnet", "channels": channels, "blocks": blocks, "value_hidden": 32,
            "hidden": [], "policy": "conv", "per_square": 1,
            "extra_actions": adapter.num_actions - 225, "game": "gobblestones",
            "config": {}, "input_shape": list(adapter.observation_shape),
            "actions": adapter.num_actions}
    return Network.random(spec, np.random.default_rng(0))


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
    def __init__(self, name: str, adapter: SearchAdapter, network: Network, games: int,
                 config: GumbelConfig) -> None:
        self.name, self.games = name, games
        self.evaluate, self.kind = evaluator(network)
        self.search = GumbelSearch(adapter, self.evaluate, config)
        self.play = SelfPlay(adapter, self.search, games, np.random.default_rng(0), 0)
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
        parts = {"worlds": self.play.worlds, "tree": t.tree, "engine": t.engine,
                 "network": t.network, "bookkeeping": self.play.bookkeeping}
        total = sum(parts.values()) or 1.0
        split = ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in parts.items())
        return (f"  {self.name:9s} {self.positions / self.wall:7.1f} positions/s wall, "
                f"{self.positions / max(self.cpu, 1e-9):7.1f} per CPU-second "
                f"({self.positions} positions); {split}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--simulations", type=int, default=8)
    parser.add_argument("--considered", type=int, default=8)
    parser.add_argument("--channels", type=int, default=16)
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30.0, help="per set-up, in all")
    parser.add_argument("--slices", type=int, default=3)
    args = parser.parse_args()
    game = parlour.load_game("gobblestones")
    config = GumbelConfig(args.simulations, args.considered, 1.0)
    slots = []
    for name, adapter in (("batched", GobbleStonesAdapter(game)),
                          ("reference", ReferenceAdapter(game))):
        slots.append(Slot(name, adapter, network_for(adapter, args.channels, args.blocks),
                          args.games, config))
    print(f"## GobbleStones self-play, 2 players: {args.games} games, {args.simulations} "
          f"simulations a move, {args.considered} considered, resnet {args.channels}x"
          f"{args.blocks} on {slots[0].kind}; {args.slices} slices of "
          f"{args.seconds / args.slices:.1f} s")
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
