"""Turn e-mails against a real SMTP server (aiosmtpd, in this test process): an address is
confirmed by its link before anything is sent, a correspondence game waiting for an account
sends one e-mail with the game's link and an unsubscribe link that works, and the refusals
(issue 29)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email.header import decode_header, make_header
from email.message import Message
from pathlib import Path

import httpx
import pytest

from .helpers import FOR_TESTS, TIMEOUT, ServerProcess, account


@pytest.fixture(scope="module")
def mailing(smtp, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    _inbox, port = smtp
    folder: Path = tmp_path_factory.mktemp("mail")
    proc = ServerProcess(folder / "mail.db", limits=FOR_TESTS + ",mail_delay=0.5",
                         extra_args=("--smtp", f"smtp://127.0.0.1:{port}?from=turns@parlour.test"))
    proc.extra_args += ("--public-url", proc.base)
    yield proc.start()
    proc.stop()


def _subject(message: Message) -> str:
    """The Subject as a mail program shows it (an encoded word decoded)."""
    return str(make_header(decode_header(message["Subject"])))


def _body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def test_a_correspondence_turn_sends_one_email_until_unsubscribed(mailing, smtp):
    inbox, _port = smtp
    ada = account(mailing, "mail-ada")
    bo = account(mailing, "mail-bo")
    bad = bo.post("/api/me/email", json={"email": "not an address", "notify": True})
    assert bad.status_code == 400
    saved = bo.post("/api/me/email", json={"email": "bo@example.com", "notify": True})
    assert "confirm" in saved.json()["message"]
    confirmation = inbox.wait(1)[0]
    assert confirmation["To"] == "bo@example.com"
    assert confirmation["From"] == "turns@parlour.test"
    link = re.search(r"http://\S+/confirm-email/\S+", _body(confirmation)).group(0)
    # a table of a day a move: ada moves, and it is bo's turn while bo is away
    table = ada.post("/api/tables", json={"game": "clobber", "params": {"size": "3x4"},
                                          "open": True, "clock": {"per_move": 86400}}).json()
    seat = bo.post(f"/api/tables/{table['table']}/seats/1").json()
    with mailing.client(table["url"]) as me:
        state = me.wait_state(lambda m: m["started"])
        assert me.act([state["legal"][0]["a"]], at=state["version"])["type"] == "ack"
        time.sleep(2)
        assert len(inbox.messages) == 1, "nothing goes to an unconfirmed address"
        assert httpx.get(link, timeout=TIMEOUT).status_code == 200
        assert "used or replaced" in httpx.get(link, timeout=TIMEOUT).text  # used once
        # a confirmed address: the next turn that waits for bo sends one e-mail
        with mailing.client(seat["url"]) as them:
            state = them.wait_state(lambda m: m["version"] == 1)
            assert them.act([state["legal"][0]["a"]], at=1)["type"] == "ack"
        state = me.wait_state(lambda m: m["version"] == 2)
        assert me.act([state["legal"][0]["a"]], at=2)["type"] == "ack"
        turn = inbox.wait(2)[1]
    assert turn["To"] == "bo@example.com"
    assert "your turn in Clobber with mail-ada" in turn["Subject"]
    text = _body(turn)
    assert f"{mailing.base}{seat['url']}" in text
    leave = re.search(r"http://\S+/unsubscribe/\S+", text).group(0)
    assert turn["List-Unsubscribe"] == f"<{leave}>"
    time.sleep(1.5)
    assert len(inbox.messages) == 2, "one e-mail a turn, whichever process"
    assert "Unsubscribed" in httpx.get(leave, timeout=TIMEOUT).text
    assert not bo.get("/api/me").json()["account"]["notify_email"]
    forged = leave[:-4] + ("0000" if not leave.endswith("0000") else "1111")
    assert httpx.get(forged, timeout=TIMEOUT).status_code == 404
    log = mailing.log_path.read_text()
    assert link.rsplit("/", 1)[-1] not in log and leave.rsplit("/", 1)[-1] not in log


def test_a_server_without_smtp_refuses_an_address(server):
    browser = account(server, "no-mail")
    refused = browser.post("/api/me/email", json={"email": "x@example.com", "notify": True})
    assert refused.status_code == 409
    assert "sends no e-mail" in refused.json()["detail"]
    assert browser.post("/api/me/email", json={"email": None, "notify": False}).status_code == 200


def test_the_turn_email_is_in_the_language_its_reader_last_read_parlour_in(mailing, smtp):
    """The account keeps the language of the pages it last read (every page asks /api/whoami):
    the confirmation is in the language of the page that asked for it, the turn e-mail in the
    recipient's language, whoever's move sent it."""
    inbox, _port = smtp
    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
    host = account(mailing, "mail-hote")
    guest = account(mailing, "mail-invitee")
    assert guest.get("/api/whoami", headers=french).json()["account"]["username"] == (
        "mail-invitee")
    before = len(inbox.messages)
    saved = guest.post("/api/me/email", json={"email": "invitee@example.com", "notify": True},
                       headers=french)
    assert saved.json()["message"] == (
        "Enregistré. Ouvrez le lien envoyé à cette adresse pour la confirmer.")
    confirmation = inbox.wait(before + 1)[before]
    assert _subject(confirmation) == "parlour\u00a0: confirmez votre adresse e-mail"
    body = _body(confirmation)
    assert body.startswith("Bonjour mail-invitee,")
    link = re.search(r"http://\S+/confirm-email/\S+", body).group(0)
    confirmed = httpx.get(link, headers=french, timeout=TIMEOUT)
    assert '<html lang="fr">' in confirmed.text and "Adresse confirmée" in confirmed.text
    table = host.post("/api/tables", json={"game": "clobber", "params": {"size": "3x4"},
                                           "open": True, "clock": {"per_move": 86400}}).json()
    seat = guest.post(f"/api/tables/{table['table']}/seats/1").json()
    with mailing.client(table["url"]) as me:  # the host's page is English: the mail is not
        state = me.wait_state(lambda m: m["started"])
        assert me.act([state["legal"][0]["a"]], at=state["version"])["type"] == "ack"
        turn = inbox.wait(before + 2)[before + 1]
    assert turn["To"] == "invitee@example.com"
    assert _subject(turn) == "parlour\u00a0: à vous de jouer à Clobber avec mail-hote"
    assert turn["Content-Language"] == "fr"
    text = _body(turn)
    assert text.startswith("C’est à vous de jouer à Clobber avec mail-hote.")
    assert f"Jouez votre coup\u00a0: {mailing.base}{seat['url']}" in text
    leave = re.search(r"http://\S+/unsubscribe/\S+", text).group(0)
    assert "Désabonné" in httpx.get(leave, headers=french, timeout=TIMEOUT).text
    # an English reader gets English again
    assert guest.get("/api/whoami", headers={"Accept-Language": "en"}).status_code == 200


def test_an_older_database_gains_the_accounts_language_and_keeps_its_rows(tmp_path: Path):
    """The e-mails' language is a nullable column: revision 0001 adds it to an older
    database's accounts (made before migrations), whose rows stay (their language unknown:
    English mails)."""
    import sqlite3

    from parlour.server.accounts import models  # noqa: F401  (the accounts' tables)
    from parlour.server.persistence.store import Store

    path = tmp_path / "old.db"
    Store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO parlour_accounts (username, username_key, handle, bot, "
                   "created_at) VALUES ('old', 'old', x'00', 0, 0.0)")
        db.execute("ALTER TABLE parlour_accounts DROP COLUMN language")
        db.execute("DROP TABLE alembic_version")  # as a server before migrations left it
    store = Store(f"sqlite:///{path}", upgrade=True)
    store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT username, language FROM parlour_accounts").fetchall() == [
            ("old", None)]
