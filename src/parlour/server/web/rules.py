"""The rules of each game for people: the page at ``/rules/GAME`` and the table's Rules dialog.

The text and its pictures are the game's (:mod:`parlour.games.rulebook`: ``rules.md`` in each
game's package, written for players in the game's own words: no ruling ids, no engine
parameters, no seat numbers from 0). Those belong to the documentation site (``docs/rules/``,
which ``parlour rules GAME --reference`` prints).

It is rendered with markdown-it (raw HTML in the text is not passed through), and each fenced
``board`` block becomes a picture of a real position: the page draws it with the same board
code as the table, from the engine's view of that position (``state.view``, the one cut for
hidden information): the picture cannot show what a player at that seat would not see.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markupsafe import Markup

from parlour import i18n
from parlour.core import game_class
from parlour.games.rulebook import FENCE, RulesTextError, rules_markdown
from parlour.games.rulebook import figure as game_figure
from parlour.i18n.text import translate_markdown
from parlour.server.web.templating import render

__all__ = ["RulesTextError", "figure", "rules_html", "rules_markdown", "rules_page"]


def figure(game: str, block: str) -> dict[str, Any]:
    """What a ``board`` block draws: the viewer's view after the moves, the view before the
    last move (the board code marks what changed) and the last move as the viewer may read it."""
    drawn = game_figure(game, block)
    return {
        "view": drawn.state.view(drawn.viewer),
        "previous": drawn.previous,
        "last": drawn.last,
        "viewer": drawn.viewer,
        "to_act": drawn.state.current_player(),
        "players": drawn.state.game.num_players(),
        "caption": drawn.caption,
    }


def _renderer(game: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).enable("table")

    def fence(self: RendererHTML, tokens: Sequence[Token], idx: int, options: Any,
              env: Any) -> str:
        token = tokens[idx]
        if token.info.strip() != FENCE:
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
