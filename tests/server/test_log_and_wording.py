"""The move log (one numbered line per turn, in the game's terms) and the wording of refusals
(the player's words, the rule named in brackets at the end)."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.agents import make_agent
from parlour.core import CHANCE_PLAYER, IllegalActionError
from parlour.games.wording import illegal_message, notation_message
from parlour.server.messages.views import Note, turn_log
from parlour.server.tables.replay import note_for


def _play(game_name: str, turns: int, **params) -> tuple[parlour.Game, list[Note], tuple]:
    game = parlour.load_game(game_name, **params)
    state, rng, agent = game.new_initial_state(), random.Random(3), make_agent("easy", game, 1)
    notes: list[Note] = []
    players = 0
    while not state.is_terminal() and players < turns:
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            action = agent.step(state)
            players += 1
        notes.append(note_for(state, state.move_number(), state.current_player(), action))
        state.apply_action(action)
    return game, notes, tuple(state.scores())


def test_clobber_one_numbered_line_per_move():
    game, notes, scores = _play("clobber", 6)
    log = turn_log(game, notes, None, scores)
    assert [line["turn"] for line in log] == [1, 2, 3, 4, 5, 6]
    assert [line["text"] for line in log] == [n.text for n in notes]
    assert [line["player"] for line in log] == [0, 1, 0, 1, 0, 1]


def test_stomple_a_string_is_one_line_and_the_deal_takes_no_number():
    game, notes, scores = _play("stomple", 12)
    log = turn_log(game, notes, None, scores)
    assert log[0]["turn"] == 1 and log[0]["seq"] > 0  # the deal came first, unnumbered
    strings = [line["text"] for line in log if " > " in line["text"]]
    assert strings, "an easy player strings stomps together in twelve actions"
    holes = [n.text for n in notes if n.player != CHANCE_PLAYER]
    assert " > ".join(line["text"] for line in log) == " > ".join(holes)


def test_plank_turns_name_the_public_cards_and_the_stop():
    game, notes, scores = _play("stomp-the-plank", 12)
    log = turn_log(game, notes, None, scores)
    assert all(line["text"].startswith("drew") for line in log)
    stopped = [line["text"] for line in log if "stopped" in line["text"]]
    assert stopped and all(", stopped: " in text for text in stopped)
    cards = [n.text.capitalize() for n in notes if n.player == CHANCE_PLAYER]
    assert cards[0] in log[0]["text"]


def test_gobblestones_plays_show_the_squares_and_points_and_hide_bluffed_colours():
    game, notes, scores = _play("gobblestones", 6)
    log = turn_log(game, notes, None, scores)
    assert log[0]["turn"] == 1
    assert any(line["text"].split()[-1].startswith("+") for line in log)
    game, notes, scores = _play("gobblestones", 40, bluff=True)
    mover_plays = [n for n in notes if n.player >= 0 and ":" in n.text]
    assert mover_plays, "somebody laid tiles face down"
    player = mover_plays[0].player
    theirs = turn_log(game, notes, player, scores)
    others = turn_log(game, notes, 1 - player, scores)
    seq = max(line["seq"] for line in theirs if line["seq"] <= mover_plays[0].seq)
    own = next(line for line in theirs if line["seq"] == seq)
    seen = next(line for line in others if line["seq"] == seq)
    assert own["text"].startswith(mover_plays[0].text.split(":")[0])  # the mover sees squares
    assert seen["text"].endswith("face down") and "tile" in seen["text"]


def test_a_refusal_reads_as_the_players_words_with_the_rule_at_the_end():
    state = parlour.load_game("clobber").new_initial_state()
    with pytest.raises(ValueError) as caught:
        state.string_to_actions("a5b4")
    assert notation_message("Clobber", f"step 1: {caught.value}") == (
        "a5 and b4 are not next to each other (Clobber: moving)"
    )
    with pytest.raises(IllegalActionError) as illegal:
        state.apply_action(state.string_to_action("b1a1"))
    text = illegal_message("Clobber", illegal.value, ["Ada", "Bo"])
    assert text == "b1 holds no White stone: you move one of your own stones (Clobber: moving)"
    stomple = IllegalActionError("g6", "S8", "g6 holds player 1's stomper, so it has no marble")
    assert illegal_message("Stomple", stomple, ["Ada", "Bo"]) == (
        "g6 holds Bo's stomper, so it has no marble (Stomple: empty holes)"
    )
    plank = "cannot read move 'x': write draw (or d) or stop (or s) (P3)"
    assert notation_message("Stomp the Plank", plank) == (
        "Cannot read move 'x': write draw (or d) or stop (or s) (Stomp the Plank: drawing and "
        "stopping)"
    )
    inner = IllegalActionError("c2", "S6", "c2 is not next to you (S5), and not your colour")
    assert "(S5)" not in illegal_message("Stomple", inner)
