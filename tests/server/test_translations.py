"""A real server speaks the reader's language: the header's choice (a cookie), else the
browser's Accept-Language; pages, errors and each listener's websocket messages alike."""

from __future__ import annotations

import re

import httpx
from websockets.sync.client import connect

from .helpers import TIMEOUT, Client, ServerProcess

FRENCH = {"Accept-Language": "fr-CA,fr;q=0.9,en;q=0.5"}


def _french_client(server: ServerProcess, url: str, headers: dict[str, str]) -> Client:
    ws = connect(server.ws_base + "/ws" + url, open_timeout=TIMEOUT, max_size=2**24,
                 additional_headers=headers)
    return Client(ws.__enter__())


def test_pages_follow_accept_language_and_the_cookie_overrides_it(server: ServerProcess):
    french = server.get("/", headers=FRENCH)
    assert french.status_code == 200
    assert '<html lang="fr">' in french.text and "Votre nom" in french.text
    assert french.headers["content-language"] == "fr"
    assert "Accept-Language" in french.headers["vary"]
    assert '<option value="fr" selected>Français</option>' in french.text
    assert 'id="i18n-catalog"' in french.text  # the page's JavaScript has its words inline
    english = server.get("/", headers={"Accept-Language": "de, en;q=0.5"})
    assert '<html lang="en">' in english.text and "Your name" in english.text
    assert 'id="i18n-catalog"' not in english.text
    chosen = server.get("/", headers={**FRENCH, "Cookie": "parlour_lang=en"})
    assert '<html lang="en">' in chosen.text  # the header's choice wins over the browser's
    assert '<html lang="fr">' in server.get("/", cookies={"parlour_lang": "fr"}).text
    refused = server.get("/", headers={"Accept-Language": "fr;q=0, en"})
    assert '<html lang="en">' in refused.text  # q=0 refuses a language


def test_rules_and_learn_pages_in_french(server: ServerProcess):
    rules = server.get("/rules/clobber", headers=FRENCH)
    assert '<html lang="fr">' in rules.text
    # the page's text, without its JavaScript's inline catalog (whose keys are English ids)
    shown = re.sub(r'<script type="application/json" id="i18n-catalog">.*?</script>', "",
                   rules.text, flags=re.S)
    assert "Votre coup" in shown and "Your move" not in shown
    assert "La pierre blanche de c2 vient d&#x27;écraser la pierre noire de d2." in rules.text
    learn = server.get("/api/learn/stomple", headers=FRENCH).json()
    assert learn["tutorials"][0]["title"] == "Apprendre Stomple"
    assert learn["tutorials"][0]["steps"][0]["title"] == "Votre premier écrasement"


def test_the_pages_catalog_is_served_per_language(server: ServerProcess):
    french = server.get("/i18n/fr.json")
    assert french.status_code == 200 and "max-age" in french.headers["cache-control"]
    assert french.json()["messages"]["Your turn · {colour}"] == "À vous · {colour}"
    assert server.get("/i18n/en.json").json()["messages"] == {}
    assert server.get("/i18n/xx.json").json()["language"] == "en"


def test_errors_are_in_the_askers_language(server: ServerProcess):
    missing = server.get("/api/play/no-such-link", headers=FRENCH)
    assert missing.status_code == 404
    assert missing.json()["detail"] == (
        "aucune place n'a ce lien\u00a0: vérifiez qu'il a été copié en entier")
    assert server.get("/api/play/no-such-link").json()["detail"] == (
        "no seat has this link: check it was copied whole")


def test_each_listener_reads_the_table_in_its_own_language(server: ServerProcess):
    table = server.create("clobber")
    with server.client(table["url"]) as white, \
            _french_client(server, table["watch"], FRENCH) as french, \
            server.client(table["watch"]) as english:
        white.wait_state()
        assert french.wait_state()["seats"][1]["label"] == "Joueur 2"  # the invited seat
        assert english.wait_state()["seats"][1]["label"] == "Player 2"
        assert white.act(["a1b1"])["type"] == "ack"
        # one move, one broadcast: each spectator reads it in their language
        assert french.wait_state(lambda m: m["version"] == 1)["seats"][1]["label"] == "Joueur 2"
        assert english.wait_state(lambda m: m["version"] == 1)["seats"][1]["label"] == "Player 2"
    with _french_client(server, table["invites"][0]["url"], FRENCH) as black:
        black.wait_state()
        illegal = black.act(["b2b1"])  # b2 holds a white stone
        assert illegal["code"] == "illegal" and illegal["rule"] == "rulebook: Moving"
        assert illegal["message"] == (
            "b2 ne porte pas de pierre noire\u00a0: vous jouez une de vos propres pierres "
            "(Clobber\u00a0: jouer un coup)")
        notation = black.act(["b2d4"])
        assert notation["message"] == "b2 et d4 ne sont pas voisines (Clobber\u00a0: jouer un coup)"
        stale = black.act(["a2b2"], at=0)
        assert re.match(r"la table en est au coup 1 ; votre coup", stale["message"].replace(
            "\u00a0", " ")), stale["message"]


def test_every_page_renders_in_both_languages(server: ServerProcess):
    table = server.create("clobber")
    pages = ["/", "/account", "/leaderboard", "/leaderboard/clobber", "/players/nobody",
             "/analyse/clobber", "/learn/gobblestones", "/learn/gobblestones/bluffing",
             "/rules/stomple", table["url"], table["watch"]]
    for path in pages:
        for language, marker in (("fr", '<html lang="fr">'), ("en", '<html lang="en">')):
            page = server.get(path, headers={"Accept-Language": language})
            assert page.status_code == 200 and marker in page.text, (path, language)


def test_a_refused_game_option_reads_in_the_games_words_and_the_readers_language(
        server: ServerProcess):
    """The lobby's check names an option by the game's label for it (its presentation), never
    by the engine's parameter name, and a rule it breaks in brackets at the end."""
    def check(params: dict[str, object], headers: dict[str, str] | None = None) -> str:
        reply = server.post("/api/games/clobber/check", {"params": params}, headers=headers or {})
        assert reply.json()["ok"] is False
        return reply.json()["error"]

    assert check({"rows": "many"}) == "Board rows: expected a whole number, got 'many'"
    assert check({"rows": "many"}, FRENCH) == (
        "Rangées du plateau\u00a0: il faut un nombre entier, pas 'many'")
    assert check({"rows": 0}, FRENCH) == (
        "Un plateau va de 1x2 à 99x26, pas 0x6 (Clobber\u00a0: le plateau)")
    assert check({"first": "red"}, FRENCH) == (
        "Qui commence\u00a0: doit être parmi white, black, pas 'red'")
    stomple = server.post("/api/games/stomple/check", {"params": {"players": 9}},
                          headers=FRENCH).json()["error"]
    assert stomple == (
        "Joueurs\u00a0: Stomple se joue de 2 à 6 joueurs (Stomple\u00a0: les écraseurs)")
    created = server.post("/api/tables", {"game": "stomp-the-plank",
                                          "params": {"tip_at": 0}}, headers=FRENCH)
    assert created.status_code == 400
    assert created.json()["detail"] == (
        "Poids qui fait basculer une planche\u00a0: doit valoir au moins 1")


def test_the_lobby_names_every_option_in_the_readers_words(server: ServerProcess):
    """Every parameter of every game has a label and a line of help from the game's
    presentation (the lobby's Advanced section shows them), in French for a French reader."""
    english = server.get("/api/games").json()["games"]
    french = server.get("/api/games", headers=FRENCH).json()["games"]
    for game, translated in zip(english, french, strict=True):
        for param, words in zip(game["params"], translated["params"], strict=True):
            assert param["label"] and param["label"] != param["name"], (game["name"], param)
            assert param["help"] and not re.search(r"\b[A-Z]\d+\b", param["help"]), param
            assert words["name"] == param["name"]  # the machine's field stays
            assert words["label"] != param["label"] or words["label"] == "Cannibal Clobber", words
    clobber = {p["name"]: p for p in french[0]["params"]}
    assert clobber["size"]["label"] == "Taille du plateau"
    assert clobber["rows"]["help"] == "De 1 à 99 rangées"


def test_each_games_card_words_come_from_its_presentation_in_the_readers_words(
        server: ServerProcess):
    """The lobby card's blurb, length and options are the game's (``/api/games``; the page's
    script holds none): each option is one of the game's parameters, its words translated and
    its values kept (issue 63)."""
    english = server.get("/api/games").json()["games"]
    french = server.get("/api/games", headers=FRENCH).json()["games"]
    for game, translated in zip(english, french, strict=True):
        assert game["blurb"] and game["length"] and game["options"], game["name"]
        assert translated["blurb"] != game["blurb"], translated["name"]
        names = {p["name"] for p in game["params"]}
        for option, words in zip(game["options"], translated["options"], strict=True):
            assert option["param"] in names and option["kind"] in (
                "choice", "bool", "int", "players"), option
            assert (words["param"], words["kind"]) == (option["param"], option["kind"])
            values = [value for value, _text in option.get("choices", [])]
            assert [value for value, _text in words.get("choices", [])] == values
    clobber = {o["param"]: o for o in french[0]["options"]}
    assert clobber["first"]["choices"] == [["white", "Blanc"], ["black", "Noir"]]
    assert french[0]["length"] == "5 à 10 min" and french[0]["analysis"] == "/analyse/clobber"
    assert [g["analysis"] for g in english[1:]] == [None] * (len(english) - 1)


def test_server_refusals_are_in_the_askers_language_with_their_codes_kept(
        server: ServerProcess):
    """Request validation, the guard's refusals and the websocket's: the machine's ``code``
    and fields are the same in every language, the text is the reader's."""
    extra = server.post("/api/tables", {"game": "clobber", "colour": "red"}, headers=FRENCH)
    assert extra.status_code == 400
    assert extra.json()["detail"] == "colour\u00a0: n’est pas attendu ici"
    assert server.post("/api/tables", {"game": "clobber", "colour": "red"}).json()["detail"] == (
        "colour: is not expected here")
    typed = server.post("/api/tables", {"game": 5}, headers=FRENCH).json()["detail"]
    assert typed == "game\u00a0: doit être du texte"
    seat = server.post("/api/tables", {"game": "clobber", "seats": [{"kind": "robot"}]},
                       headers=FRENCH).json()["detail"]  # pydantic's "or" is not French
    assert seat == "seats.0.kind\u00a0: doit être parmi 'me', 'invite', 'hotseat', 'ai', 'open'"
    guest = server.post("/api/tournaments/nope/join", headers=FRENCH).json()["detail"]
    assert guest.startswith("connectez-vous, ou envoyez un jeton")
    # the guard answers before the pages' language middleware: it reads the language itself
    posted = httpx.post(server.base + "/api/tables", content=b"game=clobber", timeout=TIMEOUT,
                        headers={**FRENCH, "content-type": "application/x-www-form-urlencoded"})
    assert posted.status_code == 415
    assert posted.json()["code"] == "unsupported_media_type"
    assert posted.json()["message"] == (
        "envoyez le corps en JSON (content-type: application/json)")
    cross = server.post("/api/tables", {"game": "clobber"},
                        headers={**FRENCH, "origin": "http://evil.example"})
    assert cross.status_code == 403 and cross.json()["code"] == "cross_site"
    assert cross.json()["detail"] == "les requêtes venant d’un autre site sont refusées"
    assert server.get("/api/tournaments/nope", headers=FRENCH).json()["detail"] == (
        "ce tournoi n’existe pas")
    table = server.create("clobber")
    with _french_client(server, table["watch"], FRENCH) as watcher:
        watcher.wait_state()
        watcher.ws.send("not json")
        refused = watcher.wait(lambda m: m["type"] == "error")
        assert refused["code"] == "malformed"
        assert refused["message"] == "un message doit être un objet JSON"
        watcher.send({"type": "act", "steps": "a1b1"})
        refused = watcher.wait(lambda m: m["type"] == "error")
        assert refused["code"] == "malformed" and refused["message"].startswith("message act")
    with _french_client(server, "/watch/nosuchtable", FRENCH) as lost:
        refused = lost.recv()
        assert refused == {"type": "error", "code": "unknown_table",
                           "message": "pas de table 'nosuchtable'"}


def test_a_host_refusal_is_in_the_askers_language(tmp_path):
    server = ServerProcess(tmp_path / "host.db").start()
    try:
        refused = httpx.get(server.base + "/", headers={**FRENCH, "Host": "evil.example"},
                            timeout=TIMEOUT)
        assert refused.status_code == 400 and refused.json()["code"] == "unknown_host"
        assert refused.json()["message"].startswith("ce serveur n’est pas servi sous ce nom")
    finally:
        server.stop()


def test_a_deleted_players_name_reads_in_the_readers_language(server: ServerProcess):
    """The stored name stays "deleted player" for programs; people read it in their words."""
    from .helpers import PASSWORD, account

    browser = account(server, "fr-leaver")
    table = browser.post("/api/tables", json={
        "game": "clobber", "params": {"size": "3x4"},
        "seats": [{"kind": "me"}, {"kind": "ai", "agent": "random"}]}).json()
    assert browser.post("/api/me/delete", json={"password": PASSWORD}).status_code == 200
    french = server.get(f"/api/watch/{table['table']}", headers=FRENCH).json()["seats"][0]
    assert french["name"] == "deleted player" and french["label"] == "joueur supprimé"
    english = server.get(f"/api/watch/{table['table']}").json()["seats"][0]
    assert english["label"] == "deleted player"


def test_the_lobby_title_names_the_registered_games_in_the_readers_list_form(
    server: ServerProcess,
):
    """The template names no game: the title lists the registry's games, joined the English
    way (CLDR's "A, B, and C") or the French way ("A, B et C")."""
    from parlour.core import game_class, list_games

    titles = [game_class(name).game_type.long_name for name in list_games()]
    english = re.search(r"<title>(.*?)</title>", server.get("/").text, re.S)
    assert english and english.group(1).strip() == (
        "parlour: play " + ", ".join(titles[:-1]) + ", and " + titles[-1])
    french = re.search(r"<title>(.*?)</title>", server.get("/", headers=FRENCH).text, re.S)
    assert french and french.group(1).strip().endswith(
        ", ".join(titles[:-1]) + " et " + titles[-1])
