"""docs/research.md documents the observation tensor of every registered game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import parlour
from parlour.core import game_class

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"


def _section(text: str, title: str) -> str:
    match = re.search(rf"^### {re.escape(title)}\n(.*?)(?=^#{{2,3}} |\Z)", text, re.S | re.M)
    return match.group(1) if match else ""


@pytest.mark.parametrize("name", parlour.list_games())
def test_every_games_tensor_is_documented_with_its_shape(name: str) -> None:
    """A section per game that states the default configuration's tensor shape, so a game that
    lands or changes its tensor without documenting it fails here."""
    section = _section(DOC.read_text(encoding="utf-8"), game_class(name).game_type.long_name)
    assert section, f"docs/research.md has no '### {game_class(name).game_type.long_name}'"
    shape = parlour.load_game(name).observation_tensor_shape()
    assert f"`{shape}`" in section
