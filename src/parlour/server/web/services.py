"""The services the routes use, built once when the app starts, and the FastAPI dependencies
that hand each route its own (FastAPI's "bigger applications": a route names what it needs in
its signature, ``hub: HubDep``, and never reads the app's state itself).

The app's lifespan builds one :class:`Services` and yields it as the lifespan's state
(``{"services": ...}``), which Starlette hands to every request and websocket of the process
(``request.state.services``): nothing is set by hand on ``app.state``, and a route's needs are
read from its signature. A test or a tool may override any of them with
``app.dependency_overrides``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from parlour.server.accounts.accounts import Accounts
from parlour.server.accounts.challenges import Challenges
from parlour.server.accounts.mail import Mailer
from parlour.server.accounts.matchmaking import Matchmaker
from parlour.server.accounts.passkeys import Passkeys
from parlour.server.accounts.ratings import Ratings
from parlour.server.bots.botapi import BotAPI
from parlour.server.bots.tokens import Tokens
from parlour.server.study.analyse import Analyst
from parlour.server.study.puzzle_mining import Miner
from parlour.server.study.puzzles import PuzzleBook, PuzzleRatings
from parlour.server.tables.hub import Hub
from parlour.server.tournaments.runner import Runner
from parlour.server.tournaments.service import Tournaments

STATE_KEY = "services"
"""The lifespan state's key under which :class:`Services` reaches every request."""


@dataclass(eq=False)
class Services:
    """Everything the routes talk to, one of each per process."""

    hub: Hub
    accounts: Accounts
    passkeys: Passkeys
    ratings: Ratings
    puzzle_ratings: PuzzleRatings
    puzzle_book: PuzzleBook
    matchmaker: Matchmaker
    tokens: Tokens
    challenges: Challenges
    botapi: BotAPI
    tournaments: Tournaments
    tournament_runner: Runner
    puzzle_miner: Miner
    mailer: Mailer
    analyst: Analyst
    secure_cookies: bool
    """The session cookie is marked ``Secure`` even over plain HTTP (behind a TLS proxy)."""
    draining: bool = False
    """Set when the process begins to stop: ``/readyz`` then answers 503."""


def services_of(request: HTTPConnection) -> Services:
    services: Services = getattr(request.state, STATE_KEY)
    return services


def hub_of(request: HTTPConnection) -> Hub:
    return services_of(request).hub


def accounts_of(request: HTTPConnection) -> Accounts:
    return services_of(request).accounts


def passkeys_of(request: HTTPConnection) -> Passkeys:
    return services_of(request).passkeys


def ratings_of(request: HTTPConnection) -> Ratings:
    return services_of(request).ratings


def puzzle_ratings_of(request: HTTPConnection) -> PuzzleRatings:
    return services_of(request).puzzle_ratings


def puzzle_book_of(request: HTTPConnection) -> PuzzleBook:
    return services_of(request).puzzle_book


def matchmaker_of(request: HTTPConnection) -> Matchmaker:
    return services_of(request).matchmaker


def tokens_of(request: HTTPConnection) -> Tokens:
    return services_of(request).tokens


def challenges_of(request: HTTPConnection) -> Challenges:
    return services_of(request).challenges


def botapi_of(request: HTTPConnection) -> BotAPI:
    return services_of(request).botapi


def tournaments_of(request: HTTPConnection) -> Tournaments:
    return services_of(request).tournaments


def tournament_runner_of(request: HTTPConnection) -> Runner:
    return services_of(request).tournament_runner


def mailer_of(request: HTTPConnection) -> Mailer:
    return services_of(request).mailer


def analyst_of(request: HTTPConnection) -> Analyst:
    return services_of(request).analyst


ServicesDep = Annotated[Services, Depends(services_of)]
HubDep = Annotated[Hub, Depends(hub_of)]
AccountsDep = Annotated[Accounts, Depends(accounts_of)]
PasskeysDep = Annotated[Passkeys, Depends(passkeys_of)]
RatingsDep = Annotated[Ratings, Depends(ratings_of)]
PuzzleRatingsDep = Annotated[PuzzleRatings, Depends(puzzle_ratings_of)]
PuzzleBookDep = Annotated[PuzzleBook, Depends(puzzle_book_of)]
MatchmakerDep = Annotated[Matchmaker, Depends(matchmaker_of)]
TokensDep = Annotated[Tokens, Depends(tokens_of)]
ChallengesDep = Annotated[Challenges, Depends(challenges_of)]
BotAPIDep = Annotated[BotAPI, Depends(botapi_of)]
TournamentsDep = Annotated[Tournaments, Depends(tournaments_of)]
TournamentRunnerDep = Annotated[Runner, Depends(tournament_runner_of)]
MailerDep = Annotated[Mailer, Depends(mailer_of)]
AnalystDep = Annotated[Analyst, Depends(analyst_of)]


def secure_cookies_of(request: HTTPConnection) -> bool:
    return services_of(request).secure_cookies


SecureCookies = Annotated[bool, Depends(secure_cookies_of)]
"""Whether the session cookie is marked ``Secure`` (``--secure-cookies``)."""
