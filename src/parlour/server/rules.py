"""The rules of each game for people: the page at ``/rules/GAME`` and the table's Rules dialog.

The text is ``rules.md`` in each game's package (shipped as package data), written for
players in the game's own words: no ruling ids, no engine parameters, no seat numbers from 0.
Those belong to the documentation site (``docs/rules/``, which ``parlour rules`` prints too).

It is rendered with markdown-it (raw HTML in the text is not passed through), and each fenced
``board`` block becomes a picture of a real position. The block is a TOML table::

    position = "x..../..oxx/..... o"     # the game's position text
    params = { rows = 3, columns = 5 }   # game parameters, if the position needs them
    moves = ["c2d2"]                     # moves played from it (the last one is marked)
    viewer = 0                           # whose view to draw (default: a spectator's)
    caption = "White's stone on c2 captures the black stone on d2."

The page draws it with the same board code as the table, from the engine's view of that
position (``state.view``, the one cut for hidden information): the picture cannot show what a
player at that seat would not see.
"""

from __future__ import annotations

import html
import importlib
import json
import tomllib
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markupsafe import Markup

from parlour import i18n
from parlour.core import CHANCE_PLAYER, game_class, list_games, load_game
from parlour.i18n.text import translate_markdown
from parlour.server.templating import render

FILE = "rules.md"
FIGURE_KEYS = frozenset({"position", "params", "moves", "viewer", "caption"})


class RulesTextError(ValueError):
    """A ``board`` block that does not describe a real position (a bug in the text)."""


def _package(game: str) -> str:
    return ".".join(game_class(game).__module__.split(".")[:3])


@lru_cache(maxsize=16)
def rules_markdown(game: str) -> str | None:
    """The player's rules text of ``game``, or ``None`` if none is shipped."""
    if game not in list_games():
        return None
    source = resources.files(importlib.import_module(_package(game))).joinpath(FILE)
    return source.read_text(encoding="utf-8") if source.is_file() else None


def figure(game: str, block: str) -> dict[str, Any]:
    """What a ``board`` block draws: the viewer's view after the moves, the view before the
    last move (the board code marks what changed) and the last move as the viewer may read it."""
    try:
        spec = tomllib.loads(block)
    except tomllib.TOMLDecodeError as exc:
        raise RulesTextError(f"{game}: a board block is not TOML: {exc}") from None
    unknown = set(spec) - FIGURE_KEYS
    if unknown or "position" not in spec or "caption" not in spec:
        raise RulesTextError(f"{game}: a board block gives position and caption "
                             f"(and maybe {', '.join(sorted(FIGURE_KEYS))}), not {sorted(spec)}")
    viewer = spec.get("viewer")
    state = load_game(game, **spec.get("params", {})).state_from_position(spec["position"])
    previous = None
    last = None
    for text in spec.get("moves", []):
        previous = state.view(viewer)
        for action in state.string_to_actions(text):
            mover = state.current_player()
            seen = (state.safe_action_string(action, viewer) if mover == viewer
                    else state.public_action_string(action))
            state.apply_action(action)
            if mover != CHANCE_PLAYER:
                last = {"player": mover, "text": seen}
    return {
        "view": state.view(viewer),
        "previous": previous,
        "last": last,
        "viewer": viewer,
        "to_act": state.current_player(),
        "players": state.game.num_players(),
        "caption": str(spec["caption"]),
    }


def _renderer(game: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def fence(self: RendererHTML, tokens: Sequence[Token], idx: int, options: Any,
              env: Any) -> str:
        token = tokens[idx]
        if token.info.strip() != "board":
            return RendererHTML.fence(self, tokens, idx, options, env)
        data = figure(game, token.content)
        caption = html.escape(data["caption"])
        payload = html.escape(json.dumps(data, separators=(",", ":")), quote=True)
        return (f'<figure class="rules-figure"><div class="board rules-board" '
                f'data-board="{payload}"></div><figcaption>{caption}</figcaption></figure>\n')

    md.add_render_rule("fence", fence)
    return md


def rules_html(game: str) -> str | None:
    """The player's rules of ``game`` as HTML (its pictures drawn by the page), or ``None``, in
    the current language: each paragraph, heading, list item and caption from the catalog
    (:mod:`parlour.i18n.text`), an untranslated one left in English."""
    return _rules_html(game, i18n.current())


@lru_cache(maxsize=64)
def _rules_html(game: str, language: str) -> str | None:
    text = rules_markdown(game)
    if text is None:
        return None
    with i18n.using(language):
        return _renderer(game).render(translate_markdown(text))


# -- the page -----------------------------------------------------------------------------
def rules_page(game: str, body: str) -> str:
    """The whole ``/rules/GAME`` page around ``body`` (:func:`rules_html`): the site's header, a
    way back to the lobby, the viewport meta, links to the tutorial and to a game (the
    template ``rules.html``, in the reader's language)."""
    return render("rules.html", title=game_class(game).game_type.long_name, game=game,
                  body=Markup(body))
