"""GobbleStones games one at a time between two agents, seats alternating, a line per game
appended to OUT as it ends (so a stopped match keeps what it played):

    python bench/gobblestones_match.py net:path=runs/gobblestones/net.npz medium 200 out.txt
"""
import random
import sys
import time

import parlour
from parlour.agents import make_agent

net_spec, opponent, games, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
game = parlour.load_game("gobblestones")
wins = draws = 0
for g in range(games):
    seat = g % 2
    agents = {seat: make_agent(net_spec, game, seed=g),
              1 - seat: make_agent(opponent, game, seed=1000 + g)}
    rng = random.Random(g)
    state = game.new_initial_state()
    start = time.time()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome(rng))
        else:
            p = state.current_player()
            state.apply_action(agents[p].step(state))
    r = state.returns()
    result = "win" if r[seat] > r[1 - seat] else ("draw" if r[seat] == r[1 - seat] else "loss")
    wins += result == "win"
    draws += result == "draw"
    with open(out, "a") as f:
        f.write(f"game {g} net seat {seat + 1}: {result} {r} {time.time() - start:.0f}s; "
                f"so far {wins} wins {draws} draws of {g + 1}\n")
