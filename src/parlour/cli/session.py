"""A game at the terminal: seats filled by people or agents, one loop for every game.

The loop knows no rules: it asks the state for legal actions, parses what people type with the
game's own notation (``string_to_actions``) and shows each person only their own view.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from parlour.agents import Agent
from parlour.agents.strengths import WORDS as STRENGTH_WORDS
from parlour.cli.boards import render_board
from parlour.core import (
    Game,
    GameRecord,
    IllegalActionError,
    Information,
    ParlourError,
    State,
    presentation,
)
from parlour.core.presentation import Entry, group_turns
from parlour.games.wording import illegal_message, notation_message
from parlour.i18n import N_, Message, _, gettext, text_of, translate

HELP = N_("""[bold]Commands[/]
  [cyan]<move>[/]   a move in the game's notation (see [cyan]moves[/])
  [cyan]moves[/]    list your legal moves
  [cyan]board[/]    draw the board again
  [cyan]undo[/]     take back your last move (and the replies that followed)
  [cyan]help[/]     this text
  [cyan]quit[/]     stop; the game so far is saved""")
"""The commands at the prompt (their words stay English: what a player types)."""


@dataclass
class Seat:
    """Who sits in a seat: a person (``agent is None``) or an agent. ``label`` is the person's
    name (empty: none given) or the agent's name; the prompt adds the colour the game gives."""

    label: str
    agent: Agent | None = None

    @property
    def human(self) -> bool:
        return self.agent is None


@dataclass
class TerminalGame:
    game: Game
    seats: list[Seat]
    console: Console
    seed: int | None = None
    ask: Callable[[str], str] | None = None
    state: State = field(init=False)
    quit: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        self.state = self.game.new_initial_state()
        self.chance = random.Random(self.seed)
        self._checkpoints: list[int] = []
        self._log: list[Entry] = []
        """Every action as the table may read it, for the computer's turns told in one line."""
        self._told = 0
        self._ask = self.ask or (lambda prompt: self.console.input(prompt))

    # -- the loop ---------------------------------------------------------------------------
    def run(self) -> State:
        self.shown_for: tuple[int, int] | None = None
        while not self.state.is_terminal() and not self.quit:
            if self.state.is_chance_node():
                self._apply(self.state.sample_chance_outcome(self.chance))
                continue
            player = self.state.current_player()
            seat = self.seats[player]
            self._tell_computer_turns()
            if seat.agent is not None:
                self._apply(seat.agent.step(self.state))
                continue
            key = (player, len(self.state.history()))
            if self.shown_for != key:
                if self._must_hand_over(player, self.shown_for):
                    self.console.clear()
                    self._ask(_("Pass the keyboard to [bold]{name}[/] and press Enter ").format(
                        name=escape(self.name(player))))
                self._show(player)
                self.shown_for = key
            self._human_turn(player)
        self._tell_computer_turns(final=True)
        self._show(self._viewer())
        self._announce()
        return self.state

    def _must_hand_over(self, player: int, shown_for: tuple[int, int] | None) -> bool:
        """Hot-seat with hidden information: hide one player's view before the next sees theirs."""
        humans = sum(seat.human for seat in self.seats)
        hidden = self.game.get_type().information == Information.IMPERFECT
        return hidden and humans > 1 and (shown_for is None or shown_for[0] != player)

    def _apply(self, action: int, state: State | None = None) -> None:
        """Apply an action to ``state`` (the game's, by default), logged as everyone may
        read it (G-3), so that the computers' turns are told in the game's words."""
        state = self.state if state is None else state
        try:
            text: str | None = state.public_action_string(action)
        except (ValueError, IndexError, KeyError):
            text = None
        self._log.append(Entry(state.current_player(), text, tuple(state.scores())))
        state.apply_action(action)

    def _tell_computer_turns(self, final: bool = False) -> None:
        """Each computer's finished turn in one line, in the game's words as the move log has
        it ("Computer (hard): h8-h11 +14"), not one line per action."""
        words = presentation(self.game)
        turns = group_turns(words, self._log, tuple(self.state.scores()))
        now = self.state.current_player()
        if turns and not (final or self.state.is_terminal()
                          or (now >= 0 and now != turns[-1][1].player)):
            turns = turns[:-1]  # the last turn goes on
        for _index, turn in turns[self._told:]:
            if self.seats[turn.player].agent is not None:
                self.console.print(f"[magenta]{escape(self.name(turn.player))}:[/] "
                                   f"[bold]{escape(translate(words.turn_text(turn)))}[/]")
        self._told = max(self._told, len(turns))

    def name(self, player: int) -> str:
        """A seat as the game names it: "White", "Ada (green)", "Computer (hard, Black)"."""
        seat = self.seats[player]
        colour = seat_colour(self.state, player)
        colour = gettext(colour) if colour else colour
        if seat.agent is not None:
            strength = translate(STRENGTH_WORDS.get(seat.label, seat.label))
            if colour:
                return _("Computer ({strength}, {colour})").format(strength=strength,
                                                                    colour=colour)
            return _("Computer ({strength})").format(strength=strength)
        if seat.label:
            return f"{seat.label} ({colour})" if colour else seat.label
        if colour and presentation(self.game).colour_names_seat:
            return colour
        number = _("Player {n}").format(n=player + 1)
        return f"{number} ({colour})" if colour else number

    def _viewer(self) -> int | None:
        humans = [i for i, s in enumerate(self.seats) if s.human]
        return humans[0] if len(humans) == 1 else None

    def _show(self, player: int | None) -> None:
        self.console.print()
        names = [self.name(i) for i in range(len(self.seats))]
        self.console.print(render_board(self.state, player, names))

    def _human_turn(self, player: int) -> None:
        if not self._checkpoints or self._checkpoints[-1] != len(self.state.history()):
            self._checkpoints.append(len(self.state.history()))
        try:
            text = self._ask(f"[bold]{escape(self.name(player))}[/] > ").strip()
        except EOFError:
            self.quit = True
            return
        command = text.lower()
        if not command:
            return
        if command in {"quit", "exit", "q"}:
            self.quit = True
        elif command in {"help", "?", "h"}:
            self.console.print(self.how_to_move())
            self.console.print(gettext(HELP))
            self._list_moves()
        elif command in {"moves", "m"}:
            self._list_moves()
        elif command == "board":
            self._show(player)
        elif command == "undo":
            self._undo()
        else:
            self._play(text)

    def how_to_move(self) -> str:
        """How to type a move in this game, with an example that is legal right now."""
        how = _markup(escape(gettext(presentation(self.game).how_to_move)))
        legal = self.state.legal_actions() if not self.state.is_terminal() else []
        example = self.state.action_to_string(legal[0]) if legal else None
        if example:
            return _("[bold]How to move:[/] {how}; for example [cyan]{example}[/].").format(
                how=how, example=escape(example))
        return _("[bold]How to move:[/] {how}.").format(how=how)

    def _list_moves(self) -> None:
        moves = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        self.console.print(_("[bold]Legal moves:[/] ") + "  ".join(moves))

    def _play(self, text: str) -> None:
        """Apply everything ``text`` names, or nothing if any part is refused."""
        trial = self.state.clone()
        try:
            actions = trial.string_to_actions(text)
            for action in actions:
                if trial.current_player() != self.state.current_player():
                    raise ParlourError(Message("{text!r} goes past the end of your turn",
                                               text=text))
                trial.apply_action(trial.parse_move(trial.action_to_string(action)))
        except ParlourError as exc:
            title = self.game.get_type().long_name
            names = [self.name(i) for i in range(len(self.seats))]
            if isinstance(exc, IllegalActionError):
                message = illegal_message(title, exc, names)
            else:
                message = notation_message(title, text_of(exc), names)
            self.console.print(
                f"[red]{escape(translate(message))}[/]  "
                + _("(type [cyan]help[/] for how to move)")
            )
            return
        for action in trial.history()[len(self.state.history()):]:
            self._apply(action)

    def _undo(self) -> None:
        now = len(self.state.history())
        earlier = [c for c in self._checkpoints if c < now]
        if not earlier:
            self.console.print(_("[yellow]nothing to undo[/]"))
            return
        target = earlier[-1]
        self._checkpoints = [c for c in self._checkpoints if c <= target]
        self.state = self.game.new_state_from_actions(self.state.history()[:target])
        del self._log[target:]
        self._told = min(self._told, len(group_turns(presentation(self.game), self._log)))
        self.console.print(_("[yellow]move taken back[/]"))
        player = self.state.current_player()
        self._show(player)
        self.shown_for = (player, len(self.state.history()))  # the loop need not draw it again

    def _announce(self) -> None:
        if not self.state.is_terminal():
            self.console.print(_("[yellow]game stopped before the end[/]"))
            return
        returns, scores = self.state.returns(), self.state.scores()
        table = Table(title=_("Result"))
        table.add_column(_("seat"))
        table.add_column(_("player"))
        table.add_column(_("result"))
        if any(scores):
            table.add_column(_("points"), justify="right")
        for i, _seat in enumerate(self.seats):
            row = [str(i + 1), escape(self.name(i)),
                   _("[green]won[/]") if returns[i] > 0 else _("[red]lost[/]")]
            if any(scores):
                row.append(f"{scores[i]:g}")
            table.add_row(*row)
        self.console.print(table)

    def record(self, **metadata: object) -> GameRecord:
        labels = [self.name(i) for i in range(len(self.seats))]
        return GameRecord.from_state(
            self.state, players=labels, seats=labels, seed=self.seed, **metadata
        )


def seat_colour(state: State, player: int) -> str | None:
    """The colour a game gives a seat, as its players say it (Clobber's White and Black,
    Stomple's stomper colour once drawn); ``None`` in games without colours."""
    return presentation(state.game).seat_colour(state, player)


def _markup(text: str) -> str:
    """A presentation's text for the terminal: what a player types (in backticks) in cyan."""
    return re.sub(r"`([^`]+)`", r"[cyan]\1[/]", text)
