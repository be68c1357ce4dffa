"""The shape of every message a table sends: websocket messages, the Bot API's lines and the
JSON answers of the table routes, each a :class:`TypedDict`.

Why TypedDicts and not pydantic models: the state message is built for every listener of
every move (:meth:`parlour.server.tables.table.Table.message`), so it stays a plain dict, which
costs nothing more to build than before; the type checker holds every builder to its shape,
and FastAPI documents the routes' answers from the same classes in the OpenAPI schema
(pydantic reads a TypedDict as it reads a model). Nothing here is checked at run time: the
routes' replies keep their :class:`parlour.i18n.Message` texts for
:class:`parlour.server.web.language.LocalisedJSON` (see ``localised_replies``).

A game's own parts (``view``, ``params``, a move's notation) are the game's JSON, typed
:data:`JSONValue` here: the server passes them on and never reads them (G-3).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

JSONValue = Any
"""A game's own JSON (a view, a parameter's value): what the game builds, passed on as is."""
Params = dict[str, JSONValue]
"""A game's parameters, by name (only the ones that differ from the game's defaults)."""
ClockJSON = dict[str, JSONValue]
"""A time control as a client sends it and the store keeps it (``ClockConfig.parse`` reads
it; :class:`TimeControl` is its checked shape)."""
Outgoing = Mapping[str, object]
"""Any message on its way out (each is one of the TypedDicts below)."""


# -- the board part, the same for every message that shows a position (views.state_payload) --
class VisibleMove(TypedDict):
    """A move as the viewer may know it: always who moved; the notation only when safe."""

    player: int
    seq: int
    text: str | None


class LegalMove(TypedDict):
    """One legal action of the seat to act, and its notation."""

    a: int
    s: str


class Result(TypedDict):
    """Returns and points at the end (``reason`` and ``loser`` when the table decided it: a
    resignation, a loss on time)."""

    returns: list[float]
    scores: list[float]
    reason: NotRequired[str]
    loser: NotRequired[int | None]
    seats: NotRequired[list[int]]


class BoardPayload(TypedDict):
    """The board part of a state or partial message, for one viewer."""

    view: JSONValue
    viewer: int | None
    version: int
    to_act: int
    terminal: bool
    legal: list[LegalMove]
    last: VisibleMove | None
    result: Result | None
    preview: bool


class LogLine(TypedDict):
    """One numbered turn of the move log."""

    turn: int
    player: int
    seq: int
    text: str


# -- the state message ------------------------------------------------------------------------
class SeatEntry(TypedDict):
    """One seat as every listener sees it."""

    seat: int
    kind: str
    agent: str | None
    label: str
    name: str | None
    online: bool
    account: bool
    bot: bool


class HandEntry(TypedDict):
    """The seats a link holds and its role (``creator``, ``invite``, ``joined``...)."""

    seats: list[int]
    role: str


class Invite(TypedDict):
    """An invitation link and the seats it holds (shown to the table's creator only)."""

    seats: list[int]
    url: str


UndoRequest = TypedDict("UndoRequest", {"by": int, "from": int, "version": int})
"""A takeback asked for by a seat, back to the move ``from``, at the table's ``version``."""


class TimeControl(TypedDict, total=False):
    """A time control as stored and sent: ``per_move``, or ``initial`` and ``increment``."""

    per_move: float
    initial: float
    increment: float


class ClockState(TimeControl):
    """A time control and where it stands: the figures to tick from and the server's time
    (the time control's own fields, ``ClockConfig.to_json``, come first)."""

    label: str | None
    remaining: list[float] | None
    running: int | None
    deadline: float | None
    left: float | None
    now: float


class StateMessage(BoardPayload):
    """The full state of a table for one hand (or a spectator): ``GET /api/play/TOKEN``,
    ``GET /api/watch/TABLE`` and every websocket ``state`` message."""

    type: Literal["state"]
    table: str
    game: str
    title: str
    params: Params
    public: bool
    num_players: int
    seats: list[SeatEntry]
    custom_start: bool
    notices: list[str]
    started: bool
    awaited: list[int]
    expires_at: float | None
    listed: bool
    rated: bool
    archived: bool
    taken_over: list[int]
    resigned: list[int]
    undo: UndoRequest | None
    hand: HandEntry | None
    log: list[LogLine]
    watch: str
    rematch: str | None
    clock: ClockState | None
    invites: NotRequired[list[Invite]]


# -- replies to a seat's requests -------------------------------------------------------------
class ErrorMessage(TypedDict):
    """An error reply: nothing was changed (``client_id`` echoes the request's)."""

    type: Literal["error"]
    code: str
    message: str
    client_id: NotRequired[str | None]
    rule: NotRequired[str | None]
    step: NotRequired[int]
    to_act: NotRequired[int]
    scope: NotRequired[str]


class Ack(TypedDict):
    """A move stored (``duplicate``: a resend of one already stored, applied once)."""

    type: Literal["ack"]
    client_id: str | None
    seq: int
    version: int
    duplicate: bool


class Partial(BoardPayload):
    """A turn being composed, shown to its seat only: nothing stored."""

    type: Literal["partial"]
    client_id: str | None
    steps: list[int]
    at: int
    complete: bool


MoveReply = Ack | Partial | ErrorMessage
"""What a submitted move is answered with."""


class Resigned(TypedDict):
    type: Literal["resigned"]
    seat: int


class Reclaimed(TypedDict):
    type: Literal["reclaimed"]
    seat: int


class UndoReply(TypedDict):
    type: Literal["undo"]
    state: Literal["asked", "declined", "accepted"]


class ChatMessage(TypedDict):
    """One chat line, sent to its channel's listeners."""

    type: Literal["chat"]
    channel: str
    id: int
    seat: int | None
    name: str
    text: str
    at: float


class ChatLine(TypedDict):
    id: int
    seat: int | None
    name: str
    text: str
    at: float


class ChatHistory(TypedDict):
    type: Literal["chat_history"]
    channel: str
    messages: list[ChatLine]


# -- the table routes' answers ----------------------------------------------------------------
class TableCreated(TypedDict):
    """``POST /api/tables``: the creator's link, the seats it holds and the invitations."""

    table: str
    game: str
    url: str
    seats: list[int]
    rated: bool
    watch: str
    invites: list[Invite]


class SeatTaken(TypedDict):
    """``POST /api/tables/TABLE/seats/SEAT``: the new seat link."""

    url: str
    seat: int
    table: str


class LobbySeat(TypedDict):
    seat: int
    free: bool
    kind: str
    agent: str | None
    joined: bool


class LobbyTable(TypedDict):
    """One table of the public lobby (no tokens, no hidden parameter)."""

    table: str
    game: str
    title: str
    params: Params
    custom_start: bool
    seats: list[LobbySeat]
    clock: str | None
    rated: bool
    moves: int
    to_act: int | None
    created_at: float
    watch: str


class LobbyPage(TypedDict):
    """``GET /api/tables``: a page of open tables and of tables being played."""

    open: list[LobbyTable]
    playing: list[LobbyTable]
    page: int
    next: int | None


class SeatNamed(TypedDict):
    seat: int
    name: str | None


class Rematch(TypedDict):
    url: str
    table: str | None


class SeatFilled(TypedDict):
    seat: int
    agent: str


class StartedEarly(TypedDict):
    players: int
    seats: list[int]


class ReplayStep(TypedDict):
    """The viewer's view after one stored action (equal neighbours merged)."""

    view: JSONValue
    version: int
    last: VisibleMove | None


class Replay(TypedDict):
    """``GET /api/play/TOKEN/replay`` and ``GET /api/watch/TABLE/replay``."""

    table: str
    game: str
    viewer: int | None
    steps: list[ReplayStep]


class SeatReplayRecord(TypedDict):
    """The downloadable record of a hidden-information game: the viewer's own replay."""

    format: Literal["parlour-seat-replay"]
    version: int
    game: str
    params: Params
    players: list[str]
    viewer: int | None
    metadata: dict[str, JSONValue]
    result: Result | None
    steps: list[ReplayStep]


class Ref(TypedDict):
    """What a reply echoes of the request it answers."""

    client_id: str | None


# -- challenges and the Bot API's streams ------------------------------------------------------
class ChallengePlayer(TypedDict):
    username: str | None
    bot: bool


class Challenge(TypedDict):
    """One challenge as either of its two players reads it (``/api/challenges``, the Bot
    API's event stream)."""

    id: str
    status: str
    game: str
    params: Params
    rated: bool
    clock: ClockJSON | None
    clock_label: str | None
    challenger: ChallengePlayer
    opponent: ChallengePlayer
    created_at: float
    expires_at: float
    reason: str | None
    direction: Literal["in", "out"]
    table: str | None
    url: str | None


class Challenges(TypedDict):
    """``GET /api/challenges``: the account's challenges still waiting, sent and received."""

    challenges: list[Challenge]


class BotPlayer(TypedDict):
    """A seat's player in the Bot API: name, whether a bot, and rating in the game's pool."""

    seat: int
    name: str | None
    bot: bool
    rating: int | None
    rd: NotRequired[int]
    shown: NotRequired[str]


class BotGame(TypedDict):
    """A game of the account's, as its event stream announces it."""

    id: str
    game: str
    params: Params
    seat: int
    rated: bool
    clock: ClockJSON | None
    players: list[BotPlayer]


class FinishedBotGame(BotGame):
    outcome: str | None


class ChallengeEvent(TypedDict):
    type: Literal["challenge", "challengeGone"]
    challenge: Challenge


class GameStartEvent(TypedDict):
    type: Literal["gameStart"]
    game: BotGame


class GameFinishEvent(TypedDict):
    type: Literal["gameFinish"]
    game: FinishedBotGame


class GameFull(TypedDict):
    """The first line of a game's stream; then the seat's websocket messages, one a line."""

    type: Literal["gameFull"]
    id: str
    game: str
    seat: int
    rated: bool
    players: list[BotPlayer]
