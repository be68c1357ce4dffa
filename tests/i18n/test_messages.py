"""Messages translated where they are read: the context's language, the locale, refusals."""

from __future__ import annotations

import copy
import pickle

from parlour import i18n, load_game
from parlour.core import IllegalActionError, NotationError
from parlour.games.wording import illegal_message, notation_message, rule_label
from parlour.i18n import Message, Seat, message_n


def test_a_message_is_its_english_text_and_translates_where_read():
    seat = Message("Player {n}", n=2)
    notice = Message("{name} resigns", name=seat)
    assert notice == "Player 2 resigns"
    assert notice.translated("fr") == "Joueur 2 abandonne"
    with i18n.using("fr"):
        assert i18n.localise({"notices": [notice], "n": 3}) == {"notices": ["Joueur 2 abandonne"],
                                                                  "n": 3}
    assert i18n.localise({"notices": [notice]}) == {"notices": [notice]}  # English: as it is
    assert pickle.loads(pickle.dumps(notice)).translated("fr") == "Joueur 2 abandonne"
    assert copy.deepcopy(notice) == notice


def test_plural_forms_follow_the_language():
    one, five = message_n("{n} crate", "{n} crates", 1), message_n("{n} crate", "{n} crates", 5)
    assert (one, five) == ("1 crate", "5 crates")
    assert (one.translated("fr"), five.translated("fr")) == ("1 caisse", "5 caisses")
    # French counts 0 as singular, as English does not
    assert message_n("{n} crate", "{n} crates", 0).translated("fr") == "0 caisse"


def test_languages_are_chosen_from_codes_and_the_locale():
    assert i18n.choose("fr-CA") == i18n.choose("fr_FR.UTF-8") == "fr"
    assert i18n.choose("de") == i18n.choose(None) == "en"
    assert i18n.from_environment({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert i18n.from_environment({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}) == "en"  # LC_ALL wins
    assert i18n.from_environment({"LANGUAGE": "de:fr", "LANG": "en_GB.UTF-8"}) == "fr"
    assert i18n.from_environment({}) == "en"


def test_a_refusal_names_the_rule_in_brackets_in_both_languages():
    """One style for errors: the game's reason, then the rule in brackets (C4 is "moving")."""
    state = load_game("clobber", rows=3, columns=5).state_from_position("x..../..oxx/..... o")
    try:
        state.apply_action(state.parse_move("c2c1"))
    except IllegalActionError as exc:
        refusal = illegal_message("Clobber", exc, ["Ann", "Bob"])
    assert refusal == "c1 is empty: a move must capture an enemy stone (Clobber: moving)"
    assert refusal.translated("fr") == (
        "c1 est vide\u00a0: un coup doit prendre une pierre ennemie (Clobber\u00a0: jouer un coup)")
    with i18n.using("fr"):
        assert rule_label("Stomple", "S7") == "Stomple\u00a0: les chaînes"


def test_a_notation_error_keeps_its_rule_across_the_translation():
    try:
        load_game("clobber").new_initial_state().parse_move("b2d4")
    except NotationError as exc:
        refusal = notation_message("Clobber", i18n.text_of(exc))
    assert refusal == "b2 and d4 are not next to each other (Clobber: moving)"
    assert refusal.translated("fr") == (
        "b2 et d4 ne sont pas voisines (Clobber\u00a0: jouer un coup)")


def test_a_seat_in_a_game_message_is_named_for_the_reader():
    exc = IllegalActionError("x", "B9", Message(
        "{decider} must first decide to challenge or trust {mover}'s play",
        decider=Seat(1), mover=Seat(0)))
    assert str(exc.reason) == "player 1 must first decide to challenge or trust player 0's play"
    refusal = illegal_message("GobbleStones", exc, ["Ann", Message("Player {n}", n=2)])
    assert refusal == ("Player 2 must first decide to challenge or trust Ann's play "
                       "(GobbleStones: bluffing)")
    assert refusal.translated("fr").startswith(
        "Joueur 2 doit d'abord décider de contester la pose de Ann")


def test_a_plural_message_survives_a_trip_between_processes():
    summary = message_n("{mover} to move wins, with a winning move.",
                        "{mover} to move wins, with {n} winning moves.", 3,
                        mover=Message("White (o)"))
    again = pickle.loads(pickle.dumps(summary))
    assert again == "White (o) to move wins, with 3 winning moves."
    assert again.translated("fr") == "Blanc (o), au trait, gagne, avec 3 coups gagnants."
