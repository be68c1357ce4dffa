"""Puzzles: positions from real games where exactly one move wins.

Routes (``GAME`` is a game with puzzles, :data:`parlour.analysis.puzzles.GAMES`):

- ``/puzzles/GAME`` and ``/puzzles/GAME/ID``: the puzzle page (the next puzzle, or that one);
- ``GET /api/puzzles/GAME/next``: a puzzle near the player's rating that they have not tried:
  an account's rating and finished puzzles come from the database; a guest's from the query,
  ``?rating=1500&seen=ID,ID,...`` (at most :data:`MAX_SEEN` ids, the browser's last ones);
- ``GET /api/puzzles/GAME/ID``: that puzzle;
- ``POST /api/puzzles/GAME/ID/answer`` with ``{"moves": [...], "rating": {...}}``: the
  player's moves so far (at most :data:`MAX_MOVES`, action ids or notation), checked against
  the puzzle's line, with the solver's reply to each right one. The first wrong move fails the
  puzzle; the last right one solves it. A finished attempt (solved or failed) is rated: an
  account's rating once per puzzle, in the database (:mod:`parlour.server.study.puzzles`); a guest's
  from the ``rating`` they send (``rating``, ``rd``, ``volatility``, each bounded), which the
  browser then keeps.

The puzzles and their own ratings are in the database
(:class:`~parlour.server.study.puzzles.PuzzleBook`: the shipped set and the puzzles mined from
finished games); an account's finished attempt also moves the puzzle's rating, a guest's never does.

The replies never show what is still to find: a puzzle's line is in a reply only once the
attempt is over. Every reply is computed from the puzzle and the moves alone (nothing is kept
between requests but an account's rated attempts and the ratings), in microseconds.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from parlour.analysis import puzzles as library
from parlour.core import IllegalActionError, NotationError, ParlourError, game_class, load_game
from parlour.core.presentation import presentation
from parlour.games.wording import illegal_message, notation_message
from parlour.i18n import Message
from parlour.ratings import NEW_RATING, NEW_RD, NEW_VOLATILITY
from parlour.server.accounts.accounts import Account
from parlour.server.messages.protocol import Step
from parlour.server.messages.views import Note, state_payload
from parlour.server.study.puzzles import (
    PuzzleBook,
    PuzzleRatings,
    Rated,
    Rating,
    Stored,
    guest_attempt,
)
from parlour.server.web.deps import MaybeAccount, json_body
from parlour.server.web.services import PuzzleBookDep, PuzzleRatingsDep
from parlour.server.web.templating import page

MAX_MOVES = (library.MAX_LINE + 1) // 2
"""The player's moves in one answer: a line holds at most this many."""
MAX_SEEN = 200
"""Puzzle ids a guest's ``seen`` may list."""
MAX_ID = 16
"""The longest puzzle id (the shipped ones have 10 hex digits)."""
PLAYER_NAMES = ("you", "the solver")
"""How a refusal names the two sides."""

router = APIRouter(tags=["puzzles"])


class GuestRating(BaseModel):
    """A guest's puzzle rating, as their browser keeps it."""

    model_config = ConfigDict(extra="forbid")
    rating: float = Field(default=NEW_RATING, ge=0, le=4000)
    rd: float = Field(default=NEW_RD, ge=30, le=NEW_RD)
    volatility: float = Field(default=NEW_VOLATILITY, ge=0.01, le=0.2)


class PuzzleAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    moves: list[Step] = Field(default_factory=list, max_length=MAX_MOVES)
    rating: GuestRating | None = None


def _game(game: str) -> str:
    if game not in library.GAMES:
        raise HTTPException(404, Message("no puzzles for {game}; puzzles: {games}", game=repr(game),
                                         games=", ".join(library.GAMES)))
    return game


async def _puzzle(book: PuzzleBook, game: str, puzzle_id: str) -> Stored:
    _game(game)
    found = (None if len(puzzle_id) > MAX_ID
             else await book.store.run(book.get, game, puzzle_id))
    if found is None:
        raise HTTPException(404, Message("no puzzle {puzzle}", puzzle=repr(puzzle_id[:MAX_ID])))
    return found


def _start(game: str, puzzle: library.Puzzle) -> Any:
    return load_game(game, position=puzzle.position).new_initial_state()


def _about(game: str, stored: Stored) -> dict[str, Any]:
    """What a player may know of a puzzle before trying it (not its line): its rating as it
    stands (``rating`` rounded, ``puzzle_rating`` in full) and where it comes from."""
    puzzle = stored.puzzle
    state = _start(game, puzzle)
    player = state.current_player()
    return {
        "game": game,
        "title": game_class(game).game_type.long_name,
        "id": puzzle.id,
        "rating": round(puzzle.rating),
        "moves_to_find": puzzle.player_moves,
        "player": player,
        "colour": presentation(state.get_game()).seat_colour(state, player),
        "source": stored.source(),
        "puzzle_rating": stored.rating(),
        **state_payload(state, player, None),
    }


async def _player(ratings: PuzzleRatings, account: Account | None, game: str
                  ) -> dict[str, Any]:
    if account is None:
        return {"account": False}
    return {"account": True, **await ratings.store.run(ratings.summary, account.id, game)}


@router.get("/puzzles/{game}", include_in_schema=False)
@router.get("/puzzles/{game}/{puzzle_id}", include_in_schema=False)
async def puzzle_page(book: PuzzleBookDep, game: str, puzzle_id: str | None = None
                      ) -> HTMLResponse:
    if puzzle_id is None:
        _game(game)
    else:
        await _puzzle(book, game, puzzle_id)
    return page("puzzles.html")


@router.get("/api/puzzles/{game}/next")
async def next_puzzle(
    request: Request,
    game: str,
    account: MaybeAccount,
    book: PuzzleBookDep,
    ratings: PuzzleRatingsDep,
    rating: Annotated[float, Query(ge=0, le=4000)] = NEW_RATING,
    seen: Annotated[str, Query(max_length=MAX_SEEN * (MAX_ID + 1))] = "",
) -> dict[str, Any]:
    """A puzzle for the player's rating that they have not finished yet (an account's from
    the database, a guest's from ``rating`` and ``seen``)."""
    _game(game)
    ids = [s for s in seen.split(",") if s][:MAX_SEEN]
    if account is not None:
        rating = (await ratings.store.run(ratings.rating_of, account.id, game))[0]
        ids += await ratings.store.run(ratings.seen, account.id, game)
    try:
        chosen = await book.store.run(book.next, game, rating, ids)
    except library.PuzzleError:  # none left to offer (the book is empty)
        raise HTTPException(404, Message("there are no puzzles")) from None
    return {**_about(game, chosen), "you": await _player(ratings, account, game)}


@router.get("/api/puzzles/{game}/{puzzle_id}")
async def one_puzzle(game: str, puzzle_id: str, account: MaybeAccount, book: PuzzleBookDep,
                     ratings: PuzzleRatingsDep) -> dict[str, Any]:
    """A puzzle by its id (a link to it)."""
    stored = await _puzzle(book, game, puzzle_id)
    return {**_about(game, stored), "you": await _player(ratings, account, game)}


def _refusal(game: str, exc: ParlourError) -> str:
    title = game_class(game).game_type.long_name
    if isinstance(exc, IllegalActionError):
        return illegal_message(title, exc, PLAYER_NAMES)
    return notation_message(title, str(exc), PLAYER_NAMES)


def play_out(game: str, puzzle: library.Puzzle, moves: list[int | str]) -> dict[str, Any]:
    """The player's moves checked along the puzzle's line, with the solver's replies: the
    status (``going``, ``solved`` or ``failed``), the moves in notation and the board after
    them. Raises ``HTTPException`` 400 for an illegal or unreadable move, or a move after the
    end, naming it; nothing is rated then."""
    state = _start(game, puzzle)
    player = state.current_player()
    played: list[str] = []
    status, last, reply = "going", None, None
    for number, step in enumerate(moves, 1):
        if status != "going":
            raise HTTPException(400, Message("move {number}: the puzzle is over after move {last}",
                                             number=number, last=number - 1))
        try:
            action = step if isinstance(step, int) else state.string_to_action(step)
            text = state.action_to_string(action)
            check = library.check_move(puzzle, played, text)
        except (IllegalActionError, NotationError) as exc:
            raise HTTPException(400, Message("move {number}: {reason}", number=number,
                                             reason=_refusal(game, exc))) from None
        except ValueError:  # an action number outside the board
            raise HTTPException(400, Message("move {number}: no such move on this board",
                                             number=number)) from None
        state.apply_action(action)
        last = Note(len(played), player, text, text)
        played.append(text)
        if not check.correct:
            status = "failed"
        elif check.solved:
            status = "solved"
        else:
            assert check.reply is not None
            reply = check.reply
            opponent = state.current_player()
            state.apply_action(state.string_to_action(reply))
            last = Note(len(played), opponent, reply, reply)
            played.append(reply)
    over = status != "going"
    answer: dict[str, Any] = {
        "id": puzzle.id,
        "status": status,
        "played": played,
        "reply": reply if status == "going" and moves else None,
        **state_payload(state, player, last),
    }
    if over:
        answer["legal"] = []
        answer["solution"] = list(puzzle.line)
        answer["found"] = len(played) - (status == "failed")  # plies of the line found
    return answer


@router.post("/api/puzzles/{game}/{puzzle_id}/answer")
async def answer(request: Request, game: str, puzzle_id: str, account: MaybeAccount,
                 book: PuzzleBookDep, ratings: PuzzleRatingsDep) -> dict[str, Any]:
    """Check the player's moves; once the attempt is over, rate it."""
    stored = await _puzzle(book, game, puzzle_id)
    puzzle = stored.puzzle
    body = await json_body(request, PuzzleAnswer)
    result = play_out(game, puzzle, body.moves)
    if result["status"] != "going":
        solved = result["status"] == "solved"
        rated: Rated
        if account is not None:
            rated = await ratings.store.run(ratings.record, account.id, game, puzzle, solved)
        else:
            guest = body.rating or GuestRating()
            before: Rating = (guest.rating, guest.rd, guest.volatility)
            rated = guest_attempt(before, puzzle, solved)
        result["you"] = {"account": account is not None, **rated.as_dict()}
        result["puzzle_rating"] = rated.puzzle_dict()
    return result
