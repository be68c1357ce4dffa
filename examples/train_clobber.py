"""Train the learned Clobber player: Gumbel AlphaZero by self-play on the batched engine.

    pip install 'parlour[train]'                          # PyTorch on CPU
    python examples/train_clobber.py --out runs/clobber --minutes 60
    parlour arena clobber --agents net:path=runs/clobber/net.npz,medium --games 200

The same as ``parlour train clobber --out DIR --minutes M``, with the settings this project's
shipped network was trained with (docs/research.md, "A learned player"). It is seeded
(``--seed``), writes a checkpoint every ``--checkpoint-minutes`` and resumes from the folder
when run again on it (the minutes count the earlier sessions too). ``net.npz`` in the folder
plays on numpy alone: ``parlour play clobber --vs net:path=DIR/net.npz``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from parlour.rl.gumbel.train import TrainConfig, train

SHIPPED_SETTINGS: dict[str, Any] = dict(simulations=16, considered=8, trunk="resnet", channels=32,
                                      blocks=2, hidden=[256], policy="conv", noisy_plies=6)
"""How the shipped network (``parlour/agents/learned/networks/clobber-5x6.npz``) was trained,
beside ``TrainConfig``'s defaults: a convolution stem, two residual blocks of 32 channels, a
convolutional policy head (logits square by square) and one dense layer of 256 units under the
value head, 16 simulations a move among 8 sampled root moves, Gumbel noise in the first 6 moves
of a game (its seed was 3: ``--seed 3``)."""


def main(argv: list[str] | None = None) -> int:
    defaults = TrainConfig(**SHIPPED_SETTINGS)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="runs/clobber", help="the run's folder")
    parser.add_argument("--minutes", type=float, default=60.0, help="training wall time")
    parser.add_argument("--max-steps", type=int, default=0,
                        help="stop after this many self-play steps instead (repeats exactly)")
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--columns", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=defaults.games,
                        help="self-play games stepped together")
    parser.add_argument("--simulations", type=int, default=defaults.simulations)
    parser.add_argument("--considered", type=int, default=defaults.considered)
    parser.add_argument("--workers", type=int, default=2, help="self-play processes")
    parser.add_argument("--hidden", default=",".join(map(str, defaults.hidden)))
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--reuse", type=float, default=defaults.reuse)
    parser.add_argument("--checkpoint-minutes", type=float, default=defaults.checkpoint_minutes)
    args = parser.parse_args(argv)
    params = {} if (args.rows, args.columns) == (5, 6) else {"rows": args.rows,
                                                              "columns": args.columns}
    config = TrainConfig(**{
        **SHIPPED_SETTINGS,
        "game": "clobber", "params": params, "minutes": args.minutes,
        "max_steps": args.max_steps, "seed": args.seed, "games": args.games,
        "simulations": args.simulations, "considered": args.considered,
        "workers": args.workers, "hidden": [int(x) for x in args.hidden.split(",")],
        "lr": args.lr, "reuse": args.reuse, "checkpoint_minutes": args.checkpoint_minutes,
    })
    path = train(config, args.out)
    print(f"network: {path}\nnext: parlour arena clobber --agents net:path={path},medium "
          "--games 200")
    return 0


if __name__ == "__main__":
    sys.exit(main())
