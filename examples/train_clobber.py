"""Train a small policy-value network for Clobber 5x6 by self-play, on the batched engine.

    pip install 'parlour[train]'                     # PyTorch on CPU
    python examples/train_clobber.py --out clobber_net.pt
    parlour arena clobber --agents net:path=clobber_net.pt,medium,random --games 100

How it learns (self-play with a one-ply value search, TD targets): ``--batch`` games run in
lockstep in a :class:`parlour.batch.ClobberBatch`; at every step the mover in every game plays
the move after which the network values the opponent's position lowest (a move that leaves the
opponent without a move wins, C5), or a uniformly random move with probability ``--epsilon``
(the observation tensor is always the mover's view, so one network plays both colours). Each
position's value target is half the game's result for the mover and half the value found one
move later; with ``--symmetries`` the value also learns the board's three mirror images. The
policy head learns the moves chosen. Every ``--eval-every`` iterations it plays that one-ply
search against uniformly random moves, half the games with each colour, prints its win rate
and saves the network so far to ``--out``.

The file written holds the weights and the game they fit (``parlour.agents.net``); the ``net``
agent searches two moves ahead with the value head (``net:path=FILE:depth=1`` for one).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import parlour
from parlour.agents.net import build_network, load_network, require_torch, save_network
from parlour.batch import ClobberBatch


def children_values(net, torch, batch: ClobberBatch, mask: np.ndarray):
    """For every legal move of every game: ``(game, action, value)``, the value being the
    mover's: minus the network's value of the position after it for the opponent, or +1 when
    the opponent is left without a move (C5)."""
    games, actions = np.nonzero(mask)
    if not games.size:
        return games, actions, np.zeros(0, dtype=np.float32)
    kids = ClobberBatch(batch.game, games.size, seed=0)
    mover = batch._mover
    own, other = batch._own_other()
    square, direction = actions // 4, actions % 4
    word, bit = np.divmod(square, batch.layout.bits_per_word)
    nxt, moved = mover.apply(own[:, games], other[:, games], word, bit, direction)
    black = batch.to_move[games].astype(bool)  # the mover; the opponent moves next
    kids.stones[0] = np.where(black, nxt, moved)
    kids.stones[1] = np.where(black, moved, nxt)
    kids.to_move = (1 - batch.to_move[games]).astype(np.int8)
    kids._masks = None
    with torch.no_grad():
        _, value = net(torch.from_numpy(kids.observation_tensor()))
    value = -value.numpy()
    value[kids.num_legal_actions() == 0] = 1.0  # the opponent cannot move: a win (C5)
    return games, actions, value


def choose(net, torch, batch: ClobberBatch, epsilon: float) -> tuple[np.ndarray, np.ndarray]:
    """Per game, the legal move with the best value after it (one ply), or with probability
    ``epsilon`` a uniformly random one (-1 where the game is over); and the value after the
    move chosen, for the mover."""
    b = batch.batch_size
    live = ~batch.terminated()
    mask = batch.legal_actions_mask() & live[:, None]
    games, actions, value = children_values(net, torch, batch, mask)
    table = np.full((b, batch.num_actions), np.nan, dtype=np.float32)
    table[games, actions] = value
    best = np.full(b, -1, dtype=np.int64)
    order = np.lexsort((-value, games))
    first = np.ones(order.size, dtype=bool)
    first[1:] = games[order][1:] != games[order][:-1]
    best[games[order][first]] = actions[order][first]
    explore = batch.rng.random(b) < epsilon
    chosen = np.where(live, np.where(explore, batch.random_actions(), best), -1)
    after = np.where(live, table[np.arange(b), np.maximum(chosen, 0)], 0.0)
    return chosen, after


def self_play(net, torch, batch: ClobberBatch, epsilon: float):
    """Play every game of ``batch`` to the end with :func:`choose`; returns the observations,
    chosen moves, legal masks and value targets for the side that was to move."""
    batch.reset()
    obs_list, act_list, mask_list, mover_list, game_list, td_list = [], [], [], [], [], []
    games = np.arange(batch.batch_size)
    while not batch.terminated().all():
        live = ~batch.terminated()
        actions, after = choose(net, torch, batch, epsilon)
        td_list.append(after[live])
        obs_list.append(batch.observation_tensor()[live])
        act_list.append(actions[live])
        mask_list.append(batch.legal_actions_mask()[live])
        mover_list.append(batch.to_move[live].astype(np.int64))
        game_list.append(games[live])
        batch.step(actions)
    results = batch.returns()[np.concatenate(game_list), np.concatenate(mover_list)]
    # the value target: half the game's result, half the value found one move later (TD)
    target = 0.5 * results + 0.5 * np.concatenate(td_list)
    return (np.concatenate(obs_list), np.concatenate(act_list), np.concatenate(mask_list),
            target.astype(np.float32))


def mirrors(obs: np.ndarray) -> np.ndarray:
    """The up-down, left-right and both-ways mirror images of ``obs``: Clobber's rules are
    the same on a mirrored board, and the tensor is the mover's view, so a position and its
    mirrors have the same value for the mover."""
    return np.concatenate([obs[:, :, ::-1, :], obs[:, :, :, ::-1], obs[:, :, ::-1, ::-1]])


def _loss(net, torch, obs, actions, masks, results, policy_weight: float, symmetries: bool):
    """Value regression to the target (on the board's mirror images too with
    ``symmetries``), plus the policy learning the chosen moves."""
    logits, values = net(torch.from_numpy(obs))
    logits = logits.masked_fill(~torch.from_numpy(masks), -1e9)
    logp = torch.log_softmax(logits, dim=1)
    chosen = logp.gather(1, torch.from_numpy(actions)[:, None]).squeeze(1)
    target = torch.from_numpy(results)
    if symmetries:
        _, mirrored = net(torch.from_numpy(np.ascontiguousarray(mirrors(obs))))
        values = torch.cat([values, mirrored])
        target = target.repeat(4)
    value_loss = ((values - target) ** 2).mean()
    return value_loss - policy_weight * chosen.mean()


def win_rate_vs_random(net, torch, game, games: int, seed: int) -> float:
    """The network (one-ply value search) against uniformly random moves, each colour in
    half of the games."""
    wins = 0
    for seat in (0, 1):
        batch = ClobberBatch(game, games // 2, seed=seed + seat)
        while not batch.terminated().all():
            ours = batch.to_move == seat
            actions = np.where(ours, choose(net, torch, batch, 0.0)[0], batch.random_actions())
            batch.step(actions)
        wins += int((batch.returns()[:, seat] > 0).sum())
    return wins / (2 * (games // 2))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default="clobber_net.pt", help="where to save the network")
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--columns", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=400, help="self-play rounds")
    parser.add_argument("--minutes", type=float, default=25.0, help="stop after this long")
    parser.add_argument("--batch", type=int, default=256, help="games per self-play round")
    parser.add_argument("--lr", type=float, default=2e-3)
    parser.add_argument("--epochs", type=int, default=4, help="passes over each round's moves")
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--epsilon", type=float, default=0.3, help="random moves in self-play")
    parser.add_argument("--policy-weight", type=float, default=0.0,
                        help="weight of the policy's loss next to the value's")
    parser.add_argument("--symmetries", action="store_true",
                        help="train the value on the board's mirror images too (4x the data)")
    parser.add_argument("--eval-every", type=int, default=25)
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--init", default="", help="start from this saved network")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    args = parser.parse_args(argv)

    torch = require_torch()
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    game = parlour.load_game("clobber", rows=args.rows, columns=args.columns)
    net = build_network(game.observation_tensor_shape(), game.num_distinct_actions())
    if args.init:
        net.load_state_dict(load_network(args.init, game).state_dict())
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr)
    batch = ClobberBatch(game, args.batch, seed=args.seed)
    start = time.perf_counter()
    rate = win_rate_vs_random(net, torch, game, args.eval_games, args.seed + 10_000)
    print(f"iteration 0: win rate against random {rate:.1%}")
    iteration = 0
    for iteration in range(1, args.iterations + 1):
        obs, actions, masks, results = self_play(net, torch, batch, args.epsilon)
        order = np.random.default_rng(args.seed + iteration).permutation(len(actions))
        for _epoch in range(args.epochs):
            for begin in range(0, len(order), args.minibatch):
                part = order[begin:begin + args.minibatch]
                loss = _loss(net, torch, obs[part], actions[part], masks[part], results[part],
                             args.policy_weight, args.symmetries)
                optimiser.zero_grad()
                loss.backward()
                optimiser.step()
        elapsed = time.perf_counter() - start
        if iteration % args.eval_every == 0 or elapsed > 60 * args.minutes:
            rate = win_rate_vs_random(net, torch, game, args.eval_games,
                                      args.seed + 10_000 + iteration)
            print(f"iteration {iteration}: {len(actions)} moves, "
                  f"win rate against random {rate:.1%}, {elapsed:.0f} s", flush=True)
            save_network(args.out, net, game, iterations=iteration, win_rate_vs_random=rate)
        if elapsed > 60 * args.minutes:
            break
    rate = win_rate_vs_random(net, torch, game, args.eval_games, args.seed + 99_999)
    save_network(args.out, net, game, iterations=iteration, win_rate_vs_random=rate)
    print(f"saved {args.out} after {iteration} iterations, "
          f"{time.perf_counter() - start:.0f} s: win rate against random {rate:.1%}")
    size = f"rows={args.rows},columns={args.columns}"
    print(f"next: parlour arena clobber --agents net:path={args.out},medium,random "
          f"--param {size.replace(',', ' --param ')} --games 100")
    return 0


if __name__ == "__main__":
    sys.exit(main())
