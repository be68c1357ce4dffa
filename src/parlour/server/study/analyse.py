"""The analysis board's answers: who wins a Clobber position, with which moves, and why.

``POST /api/analyse/clobber`` with ``{"position": "<C6 position text>"}`` is answered here.
The position is read and bounded in the server (a bad one is refused at once, with the rule
it breaks); the search runs in a worker process of its own (:class:`~parlour.server.ai.AIRunner`
with :func:`analyse` as its job), never on the event loop, under the solver's time limit and,
behind it, a hard deadline after which the worker is killed. A client that goes away (the
page's *Cancel*) has its worker killed at once.

Everything is computed with the public solver (:mod:`parlour.analysis`) and the values of
combinatorial game theory (:mod:`parlour.analysis.cgt`); nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass
from typing import Any

from parlour.analysis import GAMES as SOLVED_GAMES
from parlour.i18n import Message, message_n
from parlour.server.ai import AIFailure, AIRunner, AITimeout
from parlour.server.limits import Limits, RateLimiter

GAME = SOLVED_GAMES[0]
"""The game the analysis board solves: the one :mod:`parlour.analysis` solves exactly (the
server names no game itself)."""
SYMBOLS = "ox"
PLAYER = {"o": "White (o)", "x": "Black (x)"}
FILES = "abcdefghijklmnopqrstuvwxyz"

EXTRA_SECONDS = 2.0
"""Seconds after the solve for the regions' outcomes and values and the principal line; what
is not worked out by then is reported as not known (the solve's answer is kept)."""
GRACE_SECONDS = 3.0
"""Seconds past the solve limit plus :data:`EXTRA_SECONDS` after which the worker is killed
(a job that ignores its own limits: a value of a large region, a huge board's move list)."""
CGT_MAX_STONES = 10
"""Regions with at most this many stones get their combinatorial game value (about a second
for a 10-stone region the first time; it grows exponentially with the stones)."""
VALUE_MAX_CHARS = 60
"""A value whose written form is longer than this is reported as too long to show."""
WORKER_JOBS = 200
"""Analyses a worker answers before a fresh one replaces it: the solver's tables (64 MB for
each of the last four board shapes) and the memo of region values grow in its memory."""
QUICK_SECONDS = 0.3
"""Seconds of search for every winning move of a position the shipped data decides without
them all (its answer is given as it is when they are not found in time), and for the page's
first answer before the estimate."""
ESTIMATE_SECONDS = 1.0
"""Seconds of the ``hard`` agent's search for the estimate shown while the exact solve runs
(the ``hard`` player's own time a move)."""
POSITION_MAX_CHARS = 3000
"""The longest position text read: a 99 x 26 board (the game's largest) is 2,674 characters."""

OUTCOME_TEXT = {
    "x": Message("Black (x) wins it, whoever starts"),
    "o": Message("White (o) wins it, whoever starts"),
    "N": Message("whoever moves first in it wins"),
    "P": Message("whoever moves first in it loses"),
}
"""A region's outcome class in a player's words (``N``, ``P``; ``x``/``o``: that colour wins)."""


def square_name(index: int, rows: int, columns: int) -> str:
    """The square of cell ``index`` (cells run along the ranks from the top, as in C6)."""
    row, column = divmod(index, columns)
    return f"{FILES[column]}{rows - row}"


# -- in the worker process ---------------------------------------------------------------------
def analyse(position: str, seconds: float, extra_seconds: float = EXTRA_SECONDS,
            estimate_seconds: float | None = None) -> dict[str, Any]:
    """The whole answer for ``position`` (runs in a worker; the position was checked already).

    ``seconds`` bounds the solve; ``extra_seconds`` the regions and the principal line after it.
    A position of more than :data:`~parlour.analysis.openings.SEARCH_FIRST_STONES` stones
    that the opening book or the hunt's records decide is answered from them, without a
    search; a smaller one is searched (for the whole line), the data answering if the search
    runs out of time. With
    ``estimate_seconds`` (the page's first request), a position the search does not solve
    in ``seconds`` gets the ``hard`` agent's estimate instead (:func:`estimate`).
    """
    import parlour
    from parlour.analysis import SolverTimeout, openings, solver_for
    from parlour.server.ai import report_progress

    started = time.monotonic()
    state: Any = parlour.load_game(GAME, position=position).new_initial_state()
    proof = openings.lookup(state)
    stones = bin(state.stones(0) | state.stones(1)).count("1")
    if proof is not None and proof.complete and stones > openings.SEARCH_FIRST_STONES:
        return from_records(state, proof, seconds, started)
    solver = solver_for(state.get_game())

    def progress(nodes: int, spent: float) -> None:
        report_progress({"nodes": nodes, "seconds": round(spent, 2)})

    try:
        # data that decides a position without every winning move (the 6x6 start) is
        # answered as it is unless a short search finds them all
        limit = seconds if proof is None else min(seconds, QUICK_SECONDS)
        solution = solver.solve(state, all_moves=True, time_limit=limit, progress=progress)
    except SolverTimeout as exc:
        if proof is not None:
            return from_records(state, proof, seconds, started)
        if estimate_seconds is not None:
            return estimate(state, estimate_seconds)
        return unsolved(position, seconds, exc.nodes, exc.seconds)
    # the extra time goes to the small regions' values, then the principal line (half of it
    # at least), then the outcome classes of the large regions
    deadline = time.monotonic() + extra_seconds
    regions, value, value_cgsuite = describe_regions(state, deadline - extra_seconds / 2)
    line, complete = principal_line(state, solver, deadline, solution.winning_actions)
    classify_large_regions(state, solver, regions, deadline)
    mover = SYMBOLS[state.to_move]
    return {
        "solved": True,
        "position": state.position(),
        "to_move": mover,
        "winner": solution.winner,
        "winning_moves": list(solution.winning_moves),
        "regions": regions,
        "value": value,
        "value_cgsuite": value_cgsuite,
        "line": line,
        "line_complete": complete,
        "complete": True,
        "proved_by": [],
        "book": False,
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 3),
        "time_limit": seconds,
        "summary": summary(mover, solution.winner, len(solution.winning_moves),
                           state.is_terminal()),
    }


def estimate(state: Any, seconds: float) -> dict[str, Any]:
    """The answer while the exact solve runs: the ``hard`` agent's search's estimate after
    ``seconds`` (``estimate`` ``None`` where that search does not run; ``solved`` false)."""
    from parlour.agents.clobber_search import estimate as search_estimate

    guess = search_estimate(state, seconds)
    if guess is not None:
        guess["player"] = SYMBOLS[state.to_move]
        guess["position"] = state.child(guess.pop("action")).position()
    return {"solved": False, "position": state.position(), "to_move": SYMBOLS[state.to_move],
            "estimate": guess}


def work(kind: str, position: str, seconds: float) -> dict[str, Any]:
    """The analysis workers' job: ``"solve"`` (:func:`analyse` within ``seconds``) or
    ``"estimate"``, the page's first answer: the data's or a quick search's, else the
    estimate after ``seconds`` of the ``hard`` agent's search."""
    if kind == "estimate":
        return analyse(position, QUICK_SECONDS, estimate_seconds=seconds)
    return analyse(position, seconds)


def from_records(state: Any, proof: Any, seconds: float, started: float) -> dict[str, Any]:
    """The answer for a position the opening book or the solver's shipped proofs decide
    (:func:`parlour.analysis.openings.lookup`), with no search: its winning moves are the
    ones the data proves (every one when ``complete``), the line their first move, the
    regions' values worked out only for the small ones, at once. ``book``: the answer rests
    on the opening book alone."""
    from parlour.analysis import openings

    mover = SYMBOLS[state.to_move]
    winner = mover if proof.mover_wins else SYMBOLS[1 - state.to_move]
    regions, value, value_cgsuite = describe_regions(state, time.monotonic() + 0.5)
    classify_from_records(state, regions)
    line: list[dict[str, Any]] = []
    if proof.winning_actions:
        action = min(proof.winning_actions,
                     key=lambda a: (len(state.child(a).legal_actions()), a))
        line.append({"move": state.action_to_string(action), "player": mover,
                     "position": state.child(action).position()})
    if proof.complete or not proof.mover_wins:
        said = summary(mover, winner, len(proof.winning_moves))
    else:
        said = Message("{mover} to move wins.", mover=Message(PLAYER[mover]))
    return {
        "solved": True,
        "position": state.position(),
        "to_move": mover,
        "winner": winner,
        "winning_moves": list(proof.winning_moves),
        "complete": proof.complete,
        "proved_by": list(openings.hunt_records(proof.records)),
        "book": openings.RECORD in proof.records,
        "regions": regions,
        "value": value,
        "value_cgsuite": value_cgsuite,
        "line": line,
        "line_complete": False,
        "nodes": 0,
        "seconds": round(time.monotonic() - started, 3),
        "time_limit": seconds,
        "summary": said,
    }


def classify_from_records(state: Any, regions: list[dict[str, Any]]) -> None:
    """Fill in the outcome class of the regions without one where the shipped proofs decide
    the region alone with each player moving first (no search)."""
    from parlour.analysis import openings

    game = state.get_game()
    for entry in regions:
        if entry["outcome"] is not None:
            continue
        white, black = _region_bits(state, entry["squares"])
        first = [openings.lookup(game.state_from_position(_position_text(game, white, black, side)))
                 for side in (0, 1)]
        if first[0] is None or first[1] is None:
            continue
        white_wins, black_wins = first[0].mover_wins, first[1].mover_wins
        found = ("N" if white_wins and black_wins else "P" if not (white_wins or black_wins)
                 else "o" if white_wins else "x")
        entry["outcome"], entry["outcome_text"] = found, OUTCOME_TEXT[found]


def unsolved(
    position: str, seconds: float, nodes: int | None, spent: float | None
) -> dict[str, Any]:
    """The answer when the time limit struck first: nothing is guessed."""
    limit = f"{seconds:g}"
    if nodes is None:
        message = Message("Not solved within {seconds} s: try a smaller position or one closer "
                          "to the end of the game.", seconds=limit)
    else:
        count = f"{nodes:,}"
        message = Message("Not solved within {seconds} s ({nodes} positions searched): try a "
                          "smaller position or one closer to the end of the game.",
                          seconds=limit, nodes=count)
    return {
        "solved": False,
        "position": position,
        "time_limit": seconds,
        "nodes": nodes,
        "seconds": None if spent is None else round(spent, 3),
        "message": message,
    }


def summary(mover: str, winner: str, moves: int, over: bool = False) -> str:
    """``"White (o) to move wins, with 8 winning moves."``, in the command line's words."""
    me, other = Message(PLAYER[mover]), Message(PLAYER[winner])
    if over:
        return Message("{mover} has no move left: {winner} has won.", mover=me, winner=other)
    if winner != mover:
        return Message("{mover} to move loses against perfect play: {winner} wins whatever "
                       "{mover} plays.", mover=me, winner=other)
    return message_n("{mover} to move wins, with a winning move.",
                     "{mover} to move wins, with {n} winning moves.", moves, mover=me)


def _region_bits(state: Any, squares: list[str]) -> tuple[int, int]:
    """The white and black stones of ``state`` on ``squares``."""
    grid = state.get_game().grid
    mask = 0
    for square in squares:
        row = grid.rows - int(square[1:])
        mask |= 1 << (row * grid.columns + FILES.index(square[0]))
    return state.stones(0) & mask, state.stones(1) & mask


def describe_regions(
    state: Any, deadline: float
) -> tuple[list[dict[str, Any]], str | None, str | None]:
    """The live regions of ``state`` (groups of stones where someone can still move), each
    with its squares and, for small ones (while the time lasts), its value (``value`` to read,
    ``cgsuite`` in CGSuite's notation) and outcome class; and the value of the whole position,
    in both notations, when every region's is known (Left is Black, ``x``)."""
    from parlour.analysis.cgt import name, outcome, region_value, total
    from parlour.analysis.notation import write
    from parlour.analysis.regions import components, crop, is_live, normal_form

    grid = state.get_game().grid
    rows, columns = grid.rows, grid.columns
    white, black = state.stones(0), state.stones(1)
    described: list[dict[str, Any]] = []
    values = []
    for group in components(white | black, rows, columns):
        w, b = white & group, black & group
        if not is_live(b, w, False):
            continue
        squares = [square_name(i, rows, columns) for i in range(rows * columns) if group >> i & 1]
        entry: dict[str, Any] = {"squares": squares, "stones": len(squares), "outcome": None,
                                 "value": None, "cgsuite": None, "value_note": None}
        if len(squares) > CGT_MAX_STONES:
            entry["value_note"] = Message("not worked out (over {n} stones)", n=CGT_MAX_STONES)
        elif time.monotonic() >= deadline:
            entry["value_note"] = Message("not worked out in time")
        else:
            value = region_value(normal_form(*crop(rows, columns, b, w)))
            values.append(value)
            entry["outcome"] = {"L": "x", "R": "o"}.get(outcome(value), outcome(value))
            written, cgsuite = name(value), write(value)
            if max(len(written), len(cgsuite)) <= VALUE_MAX_CHARS:
                entry["value"], entry["cgsuite"] = written, cgsuite
            else:
                entry["value_note"] = Message("too long to show")
        entry["outcome_text"] = OUTCOME_TEXT.get(entry["outcome"],
                                                 Message("not worked out in time"))
        described.append(entry)
    whole = whole_cgsuite = None
    if len(values) == len(described):
        value = total(values)
        written, cgsuite = name(value), write(value)
        if max(len(written), len(cgsuite)) <= VALUE_MAX_CHARS:
            whole, whole_cgsuite = written, cgsuite
    return described, whole, whole_cgsuite


def classify_large_regions(
    state: Any, solver: Any, regions: list[dict[str, Any]], deadline: float
) -> None:
    """Fill in the outcome class of the regions without a value, each solved alone with
    both players moving first, while the time lasts."""
    from parlour.analysis import SolverTimeout

    game = state.get_game()
    for entry in regions:
        left = deadline - time.monotonic()
        if entry["outcome"] is not None or left <= 0:
            continue
        white, black = _region_bits(state, entry["squares"])
        alone = game.state_from_position(
            _position_text(game, white, black, state.to_move)
        )
        try:
            found: str = solver.outcome(alone, time_limit=left)
        except SolverTimeout:
            continue
        entry["outcome"], entry["outcome_text"] = found, OUTCOME_TEXT[found]


def _position_text(game: Any, white: int, black: int, to_move: int) -> str:
    rows, columns = game.grid.rows, game.grid.columns
    cells = "".join("o" if white >> i & 1 else "x" if black >> i & 1 else "."
                    for i in range(rows * columns))
    board = "/".join(cells[r * columns:(r + 1) * columns] for r in range(rows))
    return f"{board} {SYMBOLS[to_move]}"


def principal_line(
    state: Any, solver: Any, deadline: float, winning: tuple[int, ...]
) -> tuple[list[dict[str, Any]], bool]:
    """Perfect play from ``state``: the winner's quickest-looking winning move (the one that
    leaves the opponent the fewest moves), the loser's most stubborn reply (the one that leaves
    the winner the fewest winning answers, then the most moves), and so on to the end, as long
    as the time allows. Returns the moves and whether the line reaches the end of the game."""
    from parlour.analysis import SolverTimeout

    line: list[dict[str, Any]] = []
    current = state
    known: tuple[int, ...] | None = winning
    try:
        while not current.is_terminal():
            if time.monotonic() >= deadline:
                return line, False
            if known is None:
                left = deadline - time.monotonic()
                known = solver.solve(current, all_moves=True, time_limit=left).winning_actions
            if known:
                action = min(known, key=lambda a: (len(current.child(a).legal_actions()), a))
                after: tuple[int, ...] | None = None
            else:
                ranked = []
                for reply in current.legal_actions():
                    child = current.child(reply)
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return line, False
                    answers = solver.solve(child, all_moves=True, time_limit=left)
                    ranked.append(((len(answers.winning_actions), -len(child.legal_actions()),
                                    reply), answers.winning_actions))
                (_, _, action), after = min(ranked)
            child = current.child(action)
            line.append({
                "move": current.action_to_string(action),
                "player": SYMBOLS[current.to_move],
                "position": child.position(),
            })
            known = after
            current = child
    except SolverTimeout:
        return line, False
    return line, True


# -- in the server ------------------------------------------------------------------------------
class AnalysisRefused(ValueError):
    """A request the analysis board does not take; ``code`` and ``status`` for the reply."""

    def __init__(self, code: str, message: str, status: int = 400,
                 retry_after: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.retry_after = code, message, status, retry_after


_RULE_ID = re.compile(r"\s*\((C\d+)\)")


def position_message(text: str) -> str:
    """A game's complaint about a position, in a player's words with the rule at the end."""
    from parlour.core import game_class
    from parlour.games.wording import rule_label

    text = re.sub(rf"\s*\(see docs/rules/{re.escape(GAME)}\.md\)\s*$", "", text)
    for prefix in (f"{GAME}: ", "parameter 'position': ", f"{GAME}: "):
        text = text.removeprefix(prefix)
    text = text.replace("bad position text", "cannot read the position")
    found = _RULE_ID.search(text)
    if found is None:
        return text[:1].upper() + text[1:]
    text = _RULE_ID.sub("", text).strip()
    title = game_class(GAME).game_type.long_name
    return f"{text[:1].upper()}{text[1:]} ({rule_label(title, found.group(1))})"


def check_position(text: Any, max_stones: int) -> str:
    """The position to analyse, checked in the server: a Clobber grid position (C6) of at most
    ``max_stones`` stones. Raises :class:`AnalysisRefused` with the reason."""
    import parlour
    from parlour.core import ParlourError

    if not isinstance(text, str):
        raise AnalysisRefused("malformed", 'send {"position": "<position text>"}: '
                              "the board's ranks from the top joined by /, a space, o or x")
    if len(text) > POSITION_MAX_CHARS:
        raise AnalysisRefused(
            "too_large", f"The position text is over {POSITION_MAX_CHARS} characters "
            "(Clobber: the board)")
    try:
        state: Any = parlour.load_game(GAME, position=text.strip()).new_initial_state()
    except ParlourError as exc:
        raise AnalysisRefused("bad_position", position_message(str(exc))) from None
    stones = bin(state.stones(0) | state.stones(1)).count("1")
    if stones > max_stones:
        raise AnalysisRefused(
            "too_large", f"The analysis board takes positions of at most {max_stones} stones, "
            f"not {stones}: clear some squares")
    return state.position()


@dataclass
class AnalysisStats:
    """Counters for ``/healthz`` and the tests."""

    solved: int = 0
    from_book: int = 0
    """Of ``solved``: answered from the opening book (no search)."""
    estimated: int = 0
    unsolved: int = 0
    killed: int = 0
    cancelled: int = 0


class Analyst:
    """The analysis board's side of the server: its own worker process(es), so that a long
    solve never delays a computer player's move, a rate limit per client, and a bound on the
    requests waiting for a worker."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.seconds = limits.analysis_seconds
        self.runner = AIRunner(
            "process", workers=limits.analysis_workers,
            deadline=self.seconds + EXTRA_SECONDS + GRACE_SECONDS, job=work,
            max_jobs=WORKER_JOBS,
        )
        self.rate = RateLimiter(limits.analyses_burst, limits.analyses_per_minute / 60.0,
                                limits.rate_keys)
        self.waiting = 0
        self.in_flight: set[str] = set()
        """Clients with an analysis waiting or running (one each)."""
        self.progress: dict[str, dict[str, Any]] = {}
        """The running solve's last progress report (nodes, seconds), by client."""
        self.stats = AnalysisStats()

    def admit(self, client: str) -> None:
        """Refuse a client with an analysis in flight already or over its rate, or any
        request when too many wait already."""
        if client in self.in_flight:
            raise AnalysisRefused("one_at_a_time", "One analysis at a time: wait for the one "
                                  "in progress, or cancel it", status=429, retry_after=1)
        if not self.rate.allow(client):
            wait = self.rate.retry_after(client)
            raise AnalysisRefused("rate_limited", f"Too many analyses: try again in {wait} s",
                                  status=429, retry_after=wait)
        if self.waiting >= self.limits.analysis_queue:
            raise AnalysisRefused("busy", "The analysis board is busy: try again in a few "
                                  "seconds", status=503, retry_after=5)

    async def answer(self, position: str, gone: Any, client: str | None = None,
                     kind: str = "solve") -> dict[str, Any]:
        """Analyse ``position`` in a worker, the clients taking turns (one analysis each in
        flight); ``gone()`` (awaitable) says the client left, and then the job is cancelled
        and its worker killed. ``kind`` ``"estimate"``: the book's answer or the search's
        estimate (:func:`estimate`, :data:`ESTIMATE_SECONDS`), not the solve; while a solve
        runs, its progress is kept in :attr:`progress` for the client."""
        self.waiting += 1
        if client is not None:
            self.in_flight.add(client)
        seconds = ESTIMATE_SECONDS if kind == "estimate" else self.seconds

        def progress(data: Any) -> None:
            if client is not None and isinstance(data, dict):
                self.progress[client] = data

        task = asyncio.create_task(self.runner.run(kind, position, seconds, client=client,
                                                   on_progress=progress))
        try:
            while True:
                done, _ = await asyncio.wait({task}, timeout=0.25)
                if done:
                    break
                if await gone():
                    task.cancel()
                    self.stats.cancelled += 1
                    raise AnalysisRefused("cancelled", "The analysis was cancelled")
            try:
                result: dict[str, Any] = task.result()
            except AITimeout:
                self.stats.killed += 1
                return unsolved(position, self.seconds, None, None)
            except AIFailure as exc:
                raise AnalysisRefused("failed", f"The analysis failed: {exc.reason}",
                                      status=500) from None
        finally:
            self.waiting -= 1
            self.in_flight.discard(client or "")
            self.progress.pop(client or "", None)
            if not task.done():
                task.cancel()
        if result["solved"]:
            self.stats.solved += 1
            if result.get("book"):
                self.stats.from_book += 1
        elif kind == "estimate":
            self.stats.estimated += 1
        else:
            self.stats.unsolved += 1
        return result

    def progress_of(self, client: str) -> dict[str, Any]:
        """How far ``client``'s analysis has got: ``running`` (one waits or runs), and the
        solve's ``nodes`` and ``seconds`` as last reported (``None`` before the first)."""
        last = self.progress.get(client, {})
        return {"running": client in self.in_flight, "nodes": last.get("nodes"),
                "seconds": last.get("seconds")}

    def close(self) -> None:
        self.runner.close()
