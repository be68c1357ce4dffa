"""G-3: what each player sees, worlds sampled from a view, the tensor and the terminal board."""

from __future__ import annotations

import json
import random

import numpy as np
from rich.console import Console

from parlour.cli.boards.gobblestones import render
from parlour.games.gobblestones.board import COLOURS, parse_square

from .helpers import draw, game, letters, play, position, state


def test_g3_view_of_player_1_must_not_contain_player_0s_rack():
    a = state(racks=("RRYYB", "GGGGG"))
    b = state(racks=("PPPPP", "GGGGG"))
    assert a.view(1) == b.view(1), "player 0's rack changes nothing player 1 sees"
    view = a.view(1)
    assert view["rack"] == "GGGGG" and view["rack_sizes"] == [5, 5]
    assert "RRYYB" not in json.dumps(view)
    assert a.view(0)["rack"] == "RRYYB"
    assert a.observation_string(1) == b.observation_string(1)
    assert np.array_equal(a.observation_tensor(1), b.observation_tensor(1))


def test_g3_a_spectator_sees_no_rack_and_everyone_sees_sizes_scores_and_bag_count():
    s = state(players=3, racks=("RR", "YYY", "G"), points=(4, 7, 1))
    view = s.view(None)
    assert view["rack"] is None
    assert view["rack_sizes"] == [2, 3, 1] and view["scores"] == [4, 7, 1]
    assert view["bag"] == 94 and isinstance(view["bag"], int), "a count, never the colours"


def test_g3_a_face_down_colour_is_seen_by_its_owner_only():
    red = state(bluff=True, tiles={"h8": "r"}, owners={"h8": 0}, racks=("Y", "G"))
    blue = state(bluff=True, tiles={"h8": "b"}, owners={"h8": 0}, racks=("Y", "G"))
    assert red.view(1) == blue.view(1) and red.view(None) == blue.view(None)
    assert red.view(0) != blue.view(0)


def test_g3_a_pending_bluff_play_hides_its_colours_from_the_others():
    s = state(bluff=True, racks=("RRRRR", "GGGGG"))
    play(s, "h8:r")
    t = state(bluff=True, racks=("YRRRR", "GGGGG"))
    play(t, "h8:y")
    assert s.view(1) == t.view(1)


def test_g3_sampled_worlds_match_the_view_and_keep_20_tiles_of_each_colour():
    s = state(players=3, bluff=True, tiles={"h8": "r", "i8": "Y"}, owners={"h8": 1},
              racks=("RRGBP", "YYYPP", "GGBBB"))
    g = s.game
    rng = random.Random(0)
    others = set()
    for _ in range(30):
        world = s.sample_world(0, rng)
        assert world.view(0) == s.view(0)
        copy = g.state_from_position(world.position())  # checks 20 of each colour
        assert copy.position() == world.position()
        others.add((tuple(world.rack(1).items()), world.snapshot().tile[parse_square("h8")]))
    assert len(others) > 5, "the hidden parts really vary"


def test_g3_sampled_world_lets_a_player_in_mid_play_finish_it():
    s = state(tiles={"h8": "*"}, racks=(letters("i9", "i8"), "PPPPP"))
    s.apply_action(parse_square("i9"))  # i9 alone touches nothing: only i9-i8 is legal
    assert s.legal_actions() == [parse_square("i8")]
    rng = random.Random(1)
    for _ in range(20):
        world = s.sample_world(1, rng)
        assert world.view(1) == s.view(1)
        assert world.legal_actions() == [parse_square("i8")], "player 0 can still finish it"
        assert world.rack(0)["Y"] == 1


def test_tensor_planes_follow_the_view():
    s = state(bluff=True, tiles={"h8": "r", "i8": "Y"}, owners={"h8": 1},
              racks=("RRGBP", "YYYPP"), points=(10, 20))
    t0, t1 = s.observation_tensor(0), s.observation_tensor(1)
    h8, i8 = (7, 7), (7, 8)
    assert t0.shape == game().observation_tensor_shape()
    assert t0[14][h8] == 1 and t0[15][h8] == 0, "player 0 does not know h8's colour"
    assert t1[14][h8] == 0 and t1[15][h8] == 1 and t1[7 + COLOURS.index("R")][h8] == 1
    assert t0[7 + COLOURS.index("Y")][i8] == 1 and t0[12][i8] == 1 and t0[13][i8] == 0
    assert t0[17][0, 0] == 0.2 and t0[18][0, 0] == 0.0  # two red tiles of player 0, no yellow
    assert t0[26][0, 0] == 0.1 and t0[27][0, 0] == 0.2  # own points first, then the next seat
    assert t1[26][0, 0] == 0.2
    assert t0[31].all() and t0[33].all() and not t1[33].any()


def test_terminal_board_shows_the_viewers_rack_only():
    s = state(racks=("RRYYB", "GGPPP"), tiles={"h8": "*"})
    console = Console(record=True, width=120, color_system=None)
    console.print(render(s.view(1)))
    text = console.export_text()
    assert "Your rack:  G   G   P   P   P" in text
    assert "R   R   Y   Y   B" not in text
    assert "R5*G3 G3 B6 B6  ● Y4" in text, "c8 a centre, h8 covered"
    for row in range(1, 16):
        assert f"{row:>2} " in text
    console = Console(record=True, width=120, color_system=None)
    console.print(render(s.view(None)))
    assert "Your rack" not in console.export_text()


# -- G-5: at the end everything is turned up ----------------------------------------------------
def _about_to_end(bluff: bool = True):
    """Player 0 is to play the last turn (``max_turns=1``); bluffing, h8 is player 0's
    face-down red tile and i8 player 1's face-down yellow one."""
    tiles = {"h8": "r", "i8": "y"} if bluff else {"h8": "*"}
    text = position(tiles=tiles, owners={"h8": 0, "i8": 1} if bluff else None,
                    racks=("RRGBP", "YYPPB"), points=(10, 12))
    return game(bluff=bluff, max_turns=1).state_from_position(text)


def _finish(s):
    play(s, "pass")
    draw(s, "GGGGG")  # a pass draws five (B6), then player 1's turn is past the limit
    assert s.is_terminal() and s.end_reason == "max-turns"
    return s


def test_g5_before_the_end_racks_and_face_down_tiles_stay_hidden():
    s = _about_to_end()
    assert s.view(1)["tiles"][7][7] == "?" and s.view(None)["tiles"][7][7] == "?"
    assert s.view(1)["tiles"][7][8] == "y", "one's own face-down tile"
    assert s.view(1)["racks"] is None and s.view(None)["racks"] is None
    assert "RRGBP" not in json.dumps(s.view(1)) + json.dumps(s.view(None))
    assert "RRGBP" not in s.observation_string(1) + s.observation_string(None)


def test_g5_at_the_end_every_view_shows_every_rack_and_face_down_tile():
    s = _finish(_about_to_end())
    for viewer in (0, 1, None):
        view = s.view(viewer)
        assert view["racks"] == ["RRGGGGGGBP", "YYBPP"], viewer
        assert view["tiles"][7][7:9] == "ry", "both face-down tiles, with their colours"
        assert view["owners"] == {"h8": 0, "i8": 1}, "still face down, now turned up"
        assert view["bag"] == sum(s.bag().values()) and isinstance(view["bag"], int)
    assert s.view(0)["rack"] == "RRGGGGGGBP" and s.view(None)["rack"] is None
    text = s.observation_string(None)
    assert "racks turned up RRGGGGGGBP/YYBPP" in text
    assert " 0R" in text and " 1Y" in text, "h8 and i8 with owner and colour"


def test_g5_a_game_ended_by_the_table_turns_every_rack_and_face_down_tile_up():
    """A resignation or a loss on time ends the game before its rules do: the ended view shows
    what the rules' own end would, and the plain view still hides it (the game goes on)."""
    s = _about_to_end()
    for viewer in (0, 1, None):
        view = s.view(viewer, ended=True)
        assert view["racks"] == ["RRGBP", "YYBPP"], viewer
        assert view["tiles"][7][7:9] == "ry", "both face-down tiles, with their colours"
        assert view["terminal"] is False and view["returns"] is None, "the table has the result"
    assert s.view(1)["racks"] is None and s.view(1)["tiles"][7][7] == "?"


def test_g5_a_game_that_hides_nothing_has_the_same_ended_view():
    from parlour import load_game

    clobber = load_game("clobber").new_initial_state()
    assert clobber.view(0, ended=True) == clobber.view(0)


def test_g5_at_the_end_the_tensor_holds_every_rack_and_face_down_colour():
    s = _finish(_about_to_end())
    before = _about_to_end()
    h8, i8 = (7, 7), (7, 8)
    red, yellow = 7 + COLOURS.index("R"), 7 + COLOURS.index("Y")
    t_before, t1 = before.observation_tensor(1), s.observation_tensor(1)
    assert t_before[14][h8] == 1 and t_before[red][h8] == 0
    assert not t_before[38:].any(), "other racks: nothing before the end"
    assert t1[red][h8] == 1 and t1[14][h8] == 0 and t1[13][h8] == 1
    assert t1[15][h8] == 0 and t1[15][i8] == 1, "plane 15 is still the viewer's own tiles"
    assert t1[yellow][i8] == 1
    assert t1[17 + COLOURS.index("Y")][0, 0] == 0.2  # own rack YYBPP
    assert t1[38 + COLOURS.index("G")][0, 0] == 0.6  # seat 0 has RRGGGGGGBP, next after seat 1
    assert t1[38 + COLOURS.index("R")][0, 0] == 0.2
    spectator = s._tensor_from_view(s.view(None))
    assert spectator[17 + COLOURS.index("G")][0, 0] == 0.6, "a spectator sees from seat 0"
    assert spectator[38 + COLOURS.index("Y")][0, 0] == 0.2


def test_g5_the_terminal_board_shows_every_rack_at_the_end():
    s = _finish(_about_to_end(bluff=False))
    console = Console(record=True, width=140, color_system=None)
    console.print(render(s.view(None)))
    text = console.export_text()
    assert "Racks turned up:" in text and "Your rack" not in text
    assert "Player 2:  Y  Y  B  P  P" in text  # the second player, counted from 1


def test_g5_tiles_never_drawn_stay_unknown():
    """The bag is a count in every view, before and after the end: no colour, no order."""
    s = _finish(_about_to_end())
    keys = set(_about_to_end().view(1))
    for viewer in (0, 1, None):
        assert set(s.view(viewer)) == keys, "no new key, such as the bag's colours"
