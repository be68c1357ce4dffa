"""Bot accounts (issue 31): an account a program plays, marked as such everywhere.

An account becomes a bot once, for good (as on lichess), and only before it has played: its
ratings and records then never mix a person's games with a program's. A bot plays through the
Bot API with a ``bot:play`` token (:mod:`parlour.server.bots.tokens`), never from the web lobby or
the "Play someone now" queue, and has its own leaderboards (``?bots=true``).
"""

from __future__ import annotations

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from parlour.server.accounts.accounts import Account
from parlour.server.accounts.models import AccountRow, QueueRow
from parlour.server.persistence.store import Store


class BotError(ValueError):
    """An account that cannot become a bot (the message says why)."""


def make_bot(store: Store, account: Account) -> Account:
    """Turn ``account`` into a bot account, in one transaction: refused once it has a seat at
    any table or waits in the queue (checked in the same transaction that marks it)."""
    if account.bot:
        raise BotError("this account is a bot account already")
    with Session(store.engine) as session, session.begin():
        if store.players.seats_and_hands(session, account.id):
            raise BotError("only an account that has played no games can become a bot: make "
                           "a new account for your bot")
        waiting = session.scalar(select(func.count()).select_from(QueueRow)
                                 .where(QueueRow.account_id == account.id)) or 0
        if waiting:
            raise BotError("leave the \"Play someone now\" queue first")
        session.execute(update(AccountRow).where(AccountRow.id == account.id).values(bot=True))
    return Account(account.id, account.username, True, account.created_at, account.email,
                   account.email_confirmed, account.notify_email)
