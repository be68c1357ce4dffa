"""A real server speaks the reader's language: the header's choice (a cookie), else the
browser's Accept-Language; pages, errors and each listener's websocket messages alike."""

from __future__ import annotations

import re

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
