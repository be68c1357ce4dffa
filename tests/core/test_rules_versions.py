"""Every game declares the version of its rules; a record carries it and is never replayed by
other rules (issue 27: a change of rules must not silently change games already played)."""

from __future__ import annotations

import dataclasses
import json

import pytest

import parlour
from parlour.core import GameRecord, ParlourError, RecordError, RulesVersionError, game_class


@pytest.mark.parametrize("name", parlour.list_games())
def test_every_game_declares_a_rules_version(name: str) -> None:
    game = parlour.load_game(name)
    assert isinstance(game.rules_version, int) and game.rules_version >= 1
    assert game.rules_version == game_class(name).game_type.rules_version


def _played(name: str = "clobber", **params: object) -> parlour.State:
    state = parlour.load_game(name, **params).new_initial_state()
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    return state


def test_a_record_carries_the_rules_version_through_its_json() -> None:
    record = GameRecord.from_state(_played(rows=3, columns=4))
    assert record.rules_version == record.load_game().rules_version == 1
    body = json.loads(record.to_json())
    assert body["rules_version"] == 1
    assert GameRecord.from_json(record.to_json()) == record


def test_a_record_written_before_rules_versions_reads_as_version_one() -> None:
    body = json.loads(GameRecord.from_state(_played(rows=3, columns=4)).to_json())
    del body["rules_version"]
    old = GameRecord.from_json(json.dumps(body))
    assert old.rules_version == 1
    assert old.final_state().position() == _played(rows=3, columns=4).position()


def _bump(monkeypatch: pytest.MonkeyPatch, name: str, version: int) -> None:
    """Make ``name``'s rules version ``version`` for one test (as a change of rules would)."""
    cls = game_class(name)
    monkeypatch.setattr(cls, "game_type", dataclasses.replace(cls.game_type,
                                                              rules_version=version))


def test_a_record_of_older_rules_is_refused_naming_both_versions(monkeypatch) -> None:
    record = GameRecord.from_state(_played(rows=3, columns=4))
    _bump(monkeypatch, "clobber", 2)
    assert parlour.load_game("clobber").rules_version == 2
    for replay in (record.final_state, lambda: next(record.replay())):
        with pytest.raises(RulesVersionError) as err:
            replay()
        assert (err.value.stored, err.value.current) == (1, 2)
        assert "rules version 1" in str(err.value) and "rules version 2" in str(err.value)
        assert isinstance(err.value, ParlourError) and isinstance(err.value, ValueError)


def test_a_record_of_newer_rules_is_refused(monkeypatch) -> None:
    _bump(monkeypatch, "stomple", 3)
    record = GameRecord.from_state(_played("stomple"))
    assert record.rules_version == 3
    monkeypatch.undo()
    with pytest.raises(RulesVersionError, match=r"rules version 3.*rules version 1"):
        record.final_state()


def test_the_error_is_exported_where_the_others_are() -> None:
    assert parlour.RulesVersionError is RulesVersionError


@pytest.mark.parametrize("bad", ["2", 0, -1, True, 1.5, None])
def test_a_malformed_rules_version_is_a_record_error(bad: object) -> None:
    body = json.loads(GameRecord.from_state(_played(rows=3, columns=4)).to_json())
    body["rules_version"] = bad
    with pytest.raises(RecordError, match="rules_version"):
        GameRecord.from_json(json.dumps(body))
