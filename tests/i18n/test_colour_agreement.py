"""Colour words agree with the noun they describe (in French an adjective takes its noun's
gender and number: "bille verte", "billes vertes", "écraseur vert", "éléphant vert", "tuile
verte"). Each noun reads its colours under its own catalog context (``msgctxt``), so any
language can make them agree; the bare word is the colour itself, a noun ("le vert"), as a seat
is named. A known answer per game: the French a player reads."""

from __future__ import annotations

import pytest

from parlour import load_game
from parlour.core import IllegalActionError
from parlour.games.gobblestones.board import COLOUR_NAMES, SQUARE_COLOURS, TILE_COLOURS
from parlour.games.stomple.board import GREEN, KIND_NAMES, MARBLE_COLOURS, MARBLES_COLOURS, WHITE
from parlour.games.wording import illegal_message
from parlour.i18n import Message, in_context, translations
from parlour.server.web.language import js_catalog

FRENCH = translations("fr")

# (game, English message, its colour as the game or its page fills it in, the French)
PHRASES = [
    ("Stomple", "{colour} marble", MARBLE_COLOURS[GREEN], "bille verte"),
    ("Stomple", "{colour} marble", MARBLE_COLOURS[WHITE], "bille blanche"),
    ("Stomple", "you are the {colour} stomper", in_context("stomper", "green"),
     "vous êtes l'écraseur vert"),
    ("Stomple", "Your {colour} stomper is out of this round.", in_context("stomper", "white"),
     "Votre écraseur blanc est éliminé de cette manche."),
    ("Stomple", "Your string goes on: keep stomping {colour} marbles next to your stomper.",
     MARBLES_COLOURS[GREEN],
     "Votre chaîne continue\u00a0: écrasez encore des billes vertes à côté de votre écraseur."),
    ("Stomp the Plank", "you are the {colour} elephant", in_context("elephant", "green"),
     "vous êtes l'éléphant vert"),
    ("Stomp the Plank", "you are the {colour} elephant", in_context("elephant", "blue"),
     "vous êtes l'éléphant bleu"),
    ("GobbleStones", "{colour} tile", TILE_COLOURS[COLOUR_NAMES.index("green")], "tuile verte"),
    ("GobbleStones", "{colour} tile", TILE_COLOURS[COLOUR_NAMES.index("purple")],
     "tuile violette"),
    ("GobbleStones", "Laying {colour} tiles", in_context("tiles", "blue"),
     "Pose des tuiles bleues"),
    ("GobbleStones", "{name}, {colour} square", SQUARE_COLOURS[COLOUR_NAMES.index("green")],
     "h8, case verte"),
]


@pytest.mark.parametrize(("game", "english", "colour", "french"), PHRASES,
                         ids=[f"{g}: {f}" for g, _e, _c, f in PHRASES])
def test_a_colour_agrees_with_its_noun_in_french(game, english, colour, french):
    message = Message(english, colour=colour, name="h8")
    assert message.translated("fr") == french
    assert message.translated("en") == english.format(colour=str(colour), name="h8")


def test_the_bare_colour_is_the_colour_itself_a_masculine_noun():
    """A seat named by its colour ("Ada (vert)") reads the colour as a noun: "le vert"."""
    assert [FRENCH.gettext(c) for c in ("green", "white", "purple", "blue")] == [
        "vert", "blanc", "violet", "bleu"]


def test_every_noun_has_every_colour_in_french():
    nouns = {"marble": KIND_NAMES, "marbles": KIND_NAMES[:6], "stomper": KIND_NAMES[:6],
             "tile": COLOUR_NAMES, "tiles": COLOUR_NAMES, "square": COLOUR_NAMES,
             "elephant": ("red", "blue", "green", "orange")}
    sentinel = object()
    for noun, colours in nouns.items():
        for colour in colours:
            # gettext answers the English word for an entry it lacks: look it up for real
            found = FRENCH._catalog.get(f"{noun}\x04{colour}", sentinel)  # type: ignore[attr-defined]
            assert found is not sentinel and found, (noun, colour)


def test_a_game_refusal_agrees_too():
    """Stomple S6, from the engine: the red stomper may hop only to red marbles, not stomp the
    blue marble on g6 far away."""
    text = "......r/......b/......./...1.../......./......./0y..... 0 rb ss - 0,0 1"
    state = load_game("stomple", players=2).state_from_position(text)
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(state.string_to_action("g6"))
    assert err.value.rule == "S6"
    french = illegal_message("Stomple", err.value, ["Ann", "Bob"]).translated("fr")
    assert "g6 porte une bille bleue" in french and "vers les billes rouges" in french, french


def test_the_pages_read_the_same_words_under_their_contexts():
    french = js_catalog("fr")["messages"]
    assert french["marble\x04green"] == "verte" and french["stomper\x04green"] == "vert"
    assert french["elephant\x04green"] == "vert" and french["tiles\x04green"] == "vertes"
    assert french["green"] == "vert"
