"""Players' display names: cleaned, stored per seat, shown to everyone, kept in the record;
and the forward migration that adds the name column to an older database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from parlour import i18n
from parlour.core import GameRecord, RecordError
from parlour.server.names import MAX_NAME, clean_name, shown_name
from parlour.server.persistence.migrations.schema import SchemaError
from parlour.server.persistence.records import SeatData
from parlour.server.persistence.store import Store

from .helpers import ServerProcess, token_of


def test_a_name_is_cleaned_and_bounded():
    assert clean_name("  Ada \t Lovelace\n") == "Ada Lovelace"
    assert clean_name("Bo\x00b\x1b[31m\u202eevil\u200b") == "Bob[31mevil"
    assert clean_name("x" * 500) == "x" * MAX_NAME
    assert clean_name("\x00\x01 \u200b") is None and clean_name(None) is None
    assert clean_name("<b>Zoë</b>") == "<b>Zoë</b>"  # kept as text: the page never parses it


OLD_SCHEMA = """
CREATE TABLE parlour_tables (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64), params JSON,
  seed BIGINT, created_at FLOAT, finished BOOLEAN, rematch_of VARCHAR(32),
  rematch_id VARCHAR(32));
CREATE TABLE parlour_seats (table_id VARCHAR(32) REFERENCES parlour_tables(id),
  seat INTEGER, kind VARCHAR(16), agent VARCHAR(64), PRIMARY KEY (table_id, seat));
INSERT INTO parlour_tables VALUES ('old', 'clobber', '{}', 1, 0.0, 0, NULL, NULL);
INSERT INTO parlour_seats VALUES ('old', 0, 'human', NULL), ('old', 1, 'ai', 'easy');
"""


def test_a_guests_name_is_read_in_the_readers_language():
    """The pages keep a guest's name in English ("Guest 353"); the server's messages name that
    guest in each reader's language, and leave every other name as it was typed."""
    assert shown_name("Guest 353") == "Guest 353"  # the English reader, logs, the record
    assert i18n.localise(shown_name("Guest 353"), "fr") == "Invité 353"
    for name in ("Guest", "Guest 35x", "Guestine 3", "my Guest 3", "Ada"):
        assert i18n.localise(shown_name(name), "fr") == name
    assert i18n.localise(shown_name("deleted player"), "fr") != "deleted player"


def test_an_older_database_gains_the_name_column_and_keeps_its_rows(tmp_path: Path):
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
    with pytest.raises(SchemaError, match="parlour db upgrade"):
        Store(f"sqlite:///{path}")  # an upgrade is asked for, never done unasked
    store = Store(f"sqlite:///{path}", upgrade=True)
    try:
        data = store.load("old")
        assert data is not None
        assert data.seats == (SeatData(0, "human", None, None), SeatData(1, "ai", "easy", None))
        store.set_seat_names("old", {0: "Ada"})
        assert store.load("old").seats[0].name == "Ada"
    finally:
        store.close()
    again = Store(f"sqlite:///{path}")  # a second start finds it at the head
    try:
        assert again.load("old").seats[0].name == "Ada"
    finally:
        again.close()


def test_an_old_record_without_names_still_loads():
    text = '{"format": "parlour-record", "version": 1, "game": "clobber", "params": {},' \
        ' "actions": [], "metadata": {}}'
    assert GameRecord.from_json(text).players == ()
    with pytest.raises(RecordError, match="players"):
        GameRecord.from_json(text.replace('"metadata"', '"players": [1], "metadata"'))


def test_names_reach_every_listener_and_the_record(server: ServerProcess):
    table = server.create(
        "clobber",
        seats=[{"kind": "me", "name": "Ada\x07 <i>L</i>"}, {"kind": "invite"}],
    )
    me, friend = table["url"], table["invites"][0]["url"]
    state = server.get(f"/api/play/{token_of(me)}").json()
    assert [s["name"] for s in state["seats"]] == ["Ada <i>L</i>", None]
    renamed = server.post(f"/api/play/{token_of(friend)}/name", {"name": "  Bo " * 20})
    assert renamed.status_code == 200 and renamed.json()["name"] == ("Bo " * 8).strip()
    watch = server.get(f"/api/watch/{table['table']}").json()
    assert [s["name"] for s in watch["seats"]] == ["Ada <i>L</i>", "Bo Bo Bo Bo Bo Bo Bo Bo"]
    record = GameRecord.from_json(server.get(f"/api/play/{token_of(me)}/record").text)
    assert record.players == ("Ada <i>L</i>", "Bo Bo Bo Bo Bo Bo Bo Bo")


def test_computer_seats_are_named_by_strength_and_cannot_be_renamed(server: ServerProcess):
    table = server.create(
        "stomple", seats=[{"kind": "hotseat", "name": "Cy"}, {"kind": "ai", "agent": "hard"}]
    )
    token = token_of(table["url"])
    state = server.get(f"/api/play/{token}").json()
    assert [s["name"] for s in state["seats"]] == ["Cy", "Computer (hard)"]
    other = server.post(f"/api/play/{token}/name", {"name": "Eve", "seat": 1})
    assert other.status_code == 403
