"""``parlour train clobber --minutes 60 --out DIR``: Gumbel AlphaZero self-play training."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from parlour.cli.common import build_game, console, err_console, parse_params
from parlour.core.extras import MissingExtraError, needs_extra


def train(
    game: Annotated[str, typer.Argument(help="the game to learn (clobber)")],
    out: Annotated[
        Path, typer.Option(help="the run's folder: checkpoints, networks, log (resumes if it "
                           "holds a run)")
    ],
    minutes: Annotated[
        float, typer.Option(help="stop after this much training wall time (a resumed run "
                            "counts its earlier sessions)")
    ] = 60.0,
    cpu_minutes: Annotated[
        float, typer.Option(help="also stop once the run has used this much CPU time (0: no "
                            "limit)")
    ] = 0.0,
    param: Annotated[list[str] | None, typer.Option(help="a game parameter, key=value")] = None,
    boards: Annotated[str, typer.Option(
        "--boards", help="train one network for all these boards at once, comma-separated "
        "ROWSxCOLUMNS (e.g. 4x4,4x5,5x5,5x6,6x6,5x7; --games is then per board)")] = "",
    seed: Annotated[int, typer.Option(help="seeds the network and self-play")] = 0,
    games: Annotated[int, typer.Option(min=1, max=16384,
                                       help="self-play games stepped together")] = 256,
    simulations: Annotated[int, typer.Option(min=1, max=4096,
                                             help="search simulations per move")] = 16,
    considered: Annotated[int, typer.Option(min=1, max=256,
                                            help="root actions sampled (Gumbel top-k)")] = 8,
    workers: Annotated[int, typer.Option(min=1, max=64, help="self-play processes")] = 1,
    max_steps: Annotated[int, typer.Option(min=0, help="stop after this many self-play steps "
                                           "(0: no limit but --minutes)")] = 0,
    trunk: Annotated[str, typer.Option(help="the network's trunk: mlp or resnet")] = "resnet",
    channels: Annotated[int, typer.Option(min=1, max=512,
                                          help="resnet: convolution channels")] = 32,
    blocks: Annotated[int, typer.Option(min=0, max=32, help="resnet: residual blocks")] = 2,
    hidden: Annotated[str, typer.Option(help="fully connected layer sizes (after a resnet's "
                                        "convolutions), comma-separated; none: ''")
                      ] = "256",
    policy: Annotated[str, typer.Option(help="policy head: linear or conv (resnet)")] = "conv",
    noisy_plies: Annotated[int, typer.Option(min=0, help="Gumbel noise in the first N moves of "
                                             "a game only (0: every move)")] = 6,
    value_mix: Annotated[float, typer.Option(min=0.0, max=1.0, help="value target: this much "
                                             "search value, the rest the game's result")] = 0.0,
    lr: Annotated[float, typer.Option(help="learning rate (AdamW)")] = 1e-3,
    replay: Annotated[int, typer.Option(min=1, max=10_000_000,
                                        help="positions kept for training")] = 200_000,
    reuse: Annotated[float, typer.Option(min=0.0, max=1000.0,
                                         help="times each position is trained on")] = 4.0,
    checkpoint_minutes: Annotated[float, typer.Option(help="save every this many minutes")] = 5.0,
) -> None:
    """Train a network for GAME by self-play with Gumbel AlphaZero (needs the train extra).

    Writes DIR/net.npz (play it: parlour play clobber --vs net:path=DIR/net.npz), snapshots
    DIR/net-mNNN.npz by training minute, a checkpoint it resumes from, and DIR/log.jsonl
    (positions per second, losses, where the time goes). With --boards the network plays
    every board listed (and their transposes): convolutions only, the value read from the
    board pooled (docs/research.md). The defaults are the settings the
    shipped Clobber 5x6 network was trained with (docs/research.md; its seed was 3).
    """
    params: dict[str, Any] = parse_params(param)
    configured = build_game(game, params)
    try:
        sizes = [int(x) for x in hidden.split(",") if x.strip()]
    except ValueError:
        err_console.print("[red]error:[/] --hidden takes sizes like 256,256,256")
        raise typer.Exit(2) from None
    try:
        board_list = [[int(n) for n in b.strip().lower().split("x")]
                      for b in boards.split(",") if b.strip()]
        if any(len(b) != 2 for b in board_list):
            raise ValueError
    except ValueError:
        err_console.print("[red]error:[/] --boards takes boards like 4x4,5x6,5x7")
        raise typer.Exit(2) from None
    try:
        with needs_extra("train", "training"):
            from parlour.rl.gumbel.train import TrainConfig
            from parlour.rl.gumbel.train import train as run_training
        from parlour.agents.learned.games import adapter_for

        adapter_for(configured)  # a game the learned player cannot play is refused here
        config = TrainConfig(game=configured.name, params=params, minutes=minutes,
                             max_steps=max_steps, cpu_minutes=cpu_minutes, seed=seed,
                             games=games,
                             simulations=simulations, considered=considered, trunk=trunk,
                             channels=channels, blocks=blocks, hidden=sizes, policy=policy,
                             noisy_plies=noisy_plies, value_mix=value_mix, lr=lr,
                             replay=replay, reuse=reuse, checkpoint_minutes=checkpoint_minutes,
                             workers=workers, boards=board_list)
        path = run_training(config, out, log=lambda line: console.print(escape(line)))
    except MissingExtraError as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    except ValueError as exc:
        err_console.print(f"[red]error:[/] {escape(str(exc))}")
        raise typer.Exit(2) from None
    console.print(f"network: {escape(str(path))}\nplay it: parlour play {configured.name} "
                  f"--vs net:path={escape(str(path))}")


def register(app: typer.Typer) -> None:
    app.command()(train)
