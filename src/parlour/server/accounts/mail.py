"""Optional e-mail: "it is your turn" for correspondence games, sent by SMTP where the operator
names a server (``--smtp URL``), to confirmed addresses of players who asked for it.

- ``--smtp smtp://[user:password@]host[:port][?from=address]`` (``smtps://`` for TLS from the
  start, ``smtp+starttls://`` to upgrade); links in the mails start with ``--public-url``.
- An address is exactly one mailbox, ``local@domain``, parsed by ``email-validator`` (no
  name before it, no list, no quoted local part, no ``[IP]`` domain, no name without a dot or
  reserved for tests and local networks, at most 254 characters); each mail goes to that one
  address only, as its envelope recipient and its ``To``.
- An address is used only once its owner opened the confirmation link sent to it (so nobody
  can have the server write to someone else). Confirmation mails are counted in the database
  (every process together): ``confirmation_mails_per_hour`` for one account, and
  ``confirmation_mails_per_recipient`` a day to one address, from every account.
- Each notification carries an unsubscribe link (and a ``List-Unsubscribe`` header): an
  HMAC of the account under a key kept in the database, so no token is stored in the clear
  and old mails' links keep working.
- A correspondence game is one with a day or more a move (or on the clock). When such a game
  waits for an account, the process that stored the move waits ``mail_delay`` seconds; if the
  same turn still waits and the player is not at the table in this process, it claims the mail
  in the database (key: table, move number, account, so one process sends it once) and sends
  it, at most ``mails_per_day`` a day per account. SMTP runs in a thread, never on the loop.
"""

from __future__ import annotations

import asyncio
import email.policy
import hashlib
import hmac
import logging
import math
import random
import secrets
import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from parlour.i18n import SOURCE_LANGUAGE, Message, current, gettext, translate, using
from parlour.server.accounts.models import AccountRow, MailQuotaRow, MailRow, SettingRow
from parlour.server.accounts.sessions import digest
from parlour.server.limits import Limits
from parlour.server.persistence.store import Store
from parlour.server.tables.table import Table

log = logging.getLogger("parlour.server")

MAX_ADDRESS = 254
"""Characters in an address (RFC 5321's path less its angle brackets)."""
CORRESPONDENCE = 86400.0
"""Seconds a move (or on the clock) from which a game is correspondence."""
SMTP_TIMEOUT = 10.0
POLICY = email.policy.SMTP.clone(max_line_length=998)
"""Headers unfolded up to RFC 5322's limit, so that a long ``List-Unsubscribe`` URL is never
turned into an encoded word (which mail programs do not read as a link)."""


HOUR = 3600.0
DAY = 86400.0
NOT_AN_ADDRESS = Message("give one e-mail address, such as name@example.com: no name before "
                         "it, no list, no address in brackets")


class MailError(ValueError):
    def __init__(self, message: str, status: int = 400, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def mailbox(text: str) -> str:
    """``text`` as exactly one address to write to (its domain in ASCII, as SMTP wants it), or
    :class:`MailError`: parsed by ``email-validator``, which refuses lists (``a,b@x``,
    ``a;b@x``), display names, quoted local parts, IP-literal domains (``x@[127.0.0.1]``),
    names without a dot and special-use names (``localhost``, ``.local``, ``.test``...), and
    every part over its length (strict: the local part too). No DNS is asked (an address is
    proved by its confirmation)."""
    if len(text) > MAX_ADDRESS:
        raise MailError(NOT_AN_ADDRESS)
    try:
        found = validate_email(text, check_deliverability=False, allow_smtputf8=False,
                               allow_quoted_local=False, allow_domain_literal=False,
                               allow_display_name=False, allow_empty_local=False,
                               strict=True)
    except EmailNotValidError:
        raise MailError(NOT_AN_ADDRESS) from None
    address: str = found.ascii_email or found.normalized
    if len(address) > MAX_ADDRESS:  # an internationalised domain grows in ASCII
        raise MailError(NOT_AN_ADDRESS)
    return address


@dataclass(frozen=True)
class SmtpServer:
    host: str
    port: int
    tls: str  # "none", "ssl" or "starttls"
    user: str | None
    password: str | None
    sender: str

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        parts = urlsplit(url)
        tls = {"smtp": "none", "smtps": "ssl", "smtp+starttls": "starttls"}.get(parts.scheme)
        if tls is None or not parts.hostname:
            raise ValueError("--smtp takes smtp://host:port, smtps://... or smtp+starttls://...")
        query = parse_qs(parts.query)
        sender = query.get("from", [f"parlour@{parts.hostname}"])[0]
        return cls(parts.hostname, parts.port or (465 if tls == "ssl" else 25), tls,
                   unquote(parts.username) if parts.username else None,
                   unquote(parts.password) if parts.password else None, sender)

    def send(self, message: EmailMessage, recipient: str) -> None:
        """``message`` to ``recipient`` only (the envelope's one recipient, whatever the
        headers say)."""
        message["From"] = self.sender
        client: smtplib.SMTP = (smtplib.SMTP_SSL if self.tls == "ssl" else smtplib.SMTP)(
            self.host, self.port, timeout=SMTP_TIMEOUT)
        with client:
            if self.tls == "starttls":
                client.starttls()
            if self.user:
                client.login(self.user, self.password or "")
            client.send_message(message, to_addrs=[recipient])


def correspondence(table: Table) -> bool:
    if table.clock is None:
        return False
    config = table.clock.config
    return (config.per_move or 0) >= CORRESPONDENCE or (config.initial or 0) >= CORRESPONDENCE


class Mailer:
    def __init__(self, store: Store, limits: Limits, smtp: str | None, public_url: str) -> None:
        self.store = store
        self.limits = limits
        self.smtp = SmtpServer.parse(smtp) if smtp else None
        self.public_url = public_url.rstrip("/")
        self.sent = 0
        self._key: bytes | None = None

    # -- the account's address -----------------------------------------------------------------
    async def set_address(self, account_id: int, username: str, email: str | None,
                          notify: bool) -> str:
        """Store the address (a new one waits for its confirmation link) and the choice."""
        email = mailbox(email.strip()) if email and email.strip() else None
        if self.smtp is None and email:
            raise MailError(Message(
                "this server sends no e-mail (its operator has set no --smtp)"), 409)
        token = await self.store.run(self._set, account_id, email, notify, time.time())
        if token is None:
            return Message("Saved.") if email else Message("Saved: no e-mail will be sent.")
        assert email is not None
        message = EmailMessage(policy=POLICY)  # in the language of the page that asked
        message["To"] = email
        message["Subject"] = gettext("parlour: confirm your e-mail address")
        message.set_content(gettext(
            "Hello {name},\n\nopen this link to have parlour e-mail you when a correspondence "
            "game waits for you:\n\n{link}\n\nIf you did not ask for this, ignore this "
            "message: nothing will be sent.\n").format(
            name=username, link=f"{self.public_url}/confirm-email/{token}"))
        try:
            await asyncio.to_thread(self._send, message, email)
        except (OSError, smtplib.SMTPException):
            log.exception("sending a confirmation e-mail failed")
            raise MailError(Message("the confirmation e-mail could not be sent: try again later"),
                            503) from None
        return Message("Saved. Open the link we sent to the address to confirm it.")

    def _set(self, account_id: int, email: str | None, notify: bool, now: float) -> str | None:
        """Store the choice; for a new address, count its confirmation mail (or refuse it,
        changing nothing: :class:`MailError` 429) and return the token of its link."""
        with Session(self.store.engine) as session, session.begin():
            row = session.get(AccountRow, account_id, with_for_update=True)
            assert row is not None
            row.notify_email = notify
            if email == row.email:
                return None
            row.email = email or None
            row.email_confirmed = False
            if not email:
                row.mail_token_hash = None
                return None
            self._count_confirmation(session, account_id, email, now)
            token = secrets.token_urlsafe(24)
            row.mail_token_hash = digest(token)
            return token

    def _count_confirmation(self, session: Session, account_id: int, email: str,
                            now: float) -> None:
        """One more confirmation mail for the account and for the address, or
        :class:`MailError` 429 if either has had its share (the caller's transaction is then
        rolled back: nothing is stored)."""
        if random.random() < 0.01:  # now and then, forget the rows a day has cleared
            session.execute(delete(MailQuotaRow).where(MailQuotaRow.last_at < now - DAY))
        wait = _spend(session, f"account:{account_id}", self.limits.confirmation_mails_per_hour,
                      HOUR, now)
        if wait:
            minutes = max(1, math.ceil(wait / 60))
            raise MailError(Message("too many confirmation e-mails for this account: try again "
                                    "in {n} min", n=minutes), 429, math.ceil(wait))
        wait = _spend(session, f"to:{digest(email.lower())}",
                      self.limits.confirmation_mails_per_recipient, DAY, now)
        if wait:
            raise MailError(Message("too many confirmation e-mails have gone to this address "
                                    "today: try again tomorrow"), 429, math.ceil(wait))

    def confirm(self, token: str) -> bool:
        with self.store.engine.begin() as connection:
            return bool(connection.execute(update(AccountRow).where(
                AccountRow.mail_token_hash == digest(token[:64]),
                AccountRow.email.is_not(None)).values(
                email_confirmed=True, mail_token_hash=None)).rowcount)

    # -- unsubscribe links ---------------------------------------------------------------------
    def _secret(self) -> bytes:
        if self._key is None:
            dialect = self.store.engine.dialect.name
            upsert = postgresql.insert if dialect == "postgresql" else sqlite.insert
            with self.store.engine.begin() as connection:
                connection.execute(upsert(SettingRow).values(
                    key="unsubscribe_key", value=secrets.token_hex(32)).on_conflict_do_nothing(
                    index_elements=["key"]))
                value = connection.execute(select(SettingRow.value).where(
                    SettingRow.key == "unsubscribe_key")).scalar_one()
            self._key = bytes.fromhex(value)
        return self._key

    def unsubscribe_token(self, account_id: int) -> str:
        mac = hmac.new(self._secret(), f"unsubscribe:{account_id}".encode(), hashlib.sha256)
        return f"{account_id}-{mac.hexdigest()[:40]}"

    def unsubscribe(self, token: str) -> bool:
        head, _, _mac = token.partition("-")
        if not head.isdigit() or len(token) > 64:
            return False
        if not hmac.compare_digest(self.unsubscribe_token(int(head)), token):
            return False
        with self.store.engine.begin() as connection:
            connection.execute(update(AccountRow).where(AccountRow.id == int(head))
                               .values(notify_email=False))
        return True

    # -- turns ---------------------------------------------------------------------------------
    def after_change(self, table: Table, spawn: object) -> None:
        """After every change to a table: a correspondence game now waiting for an account's
        turn gets its e-mail checked for after ``mail_delay``."""
        if self.smtp is None or not correspondence(table):
            return
        seat = table.to_act()
        account = None if seat is None else table.seats[seat].account
        if seat is None or account is None:
            return
        assert callable(spawn)
        spawn(self._later(table, table.version, seat, account))

    async def _later(self, table: Table, version: int, seat: int, account: int) -> None:
        await asyncio.sleep(self.limits.mail_delay)
        if table.version != version or table.to_act() != seat or table.online(seat):
            return
        try:
            claimed = await self.store.run(self._claim, table.id, version, account)
            if claimed is None:
                return
            address, language = claimed
            with using(language or SOURCE_LANGUAGE):
                mail = self._turn_mail(table, seat, account, address)
            await asyncio.to_thread(self._send, mail, address)
            self.sent += 1
            log.info("table %s: turn e-mail sent for seat %d", table.id, seat)
        except Exception:
            log.exception("table %s: the turn e-mail failed", table.id)

    def _claim(self, table_id: str, version: int,
               account_id: int) -> tuple[str, str | None] | None:
        """The address to write to and the player's language, if this process is the one to
        send this mail."""
        now = time.time()
        with Session(self.store.engine) as session:
            row = session.get(AccountRow, account_id)
            if row is None or not (row.email and row.email_confirmed and row.notify_email):
                return None
            try:
                address = mailbox(row.email)  # one stored before addresses were parsed
            except MailError:
                log.warning("account %s: its stored e-mail address is not one address: "
                            "no turn e-mail", account_id)
                return None
            today = session.scalar(select(func.count()).select_from(MailRow).where(
                MailRow.account_id == account_id, MailRow.sent_at > now - 86400)) or 0
            if today >= self.limits.mails_per_day:
                return None
            language = row.language
        try:
            with Session(self.store.engine) as session, session.begin():
                session.add(MailRow(table_id=table_id, version=version, account_id=account_id,
                                    sent_at=now))
        except IntegrityError:
            return None  # another process sends it
        return address, language

    def _turn_mail(self, table: Table, seat: int, account: int, address: str) -> EmailMessage:
        """The "your turn" mail, in the current language (the player's: :meth:`_later`)."""
        hand = next((h for h in table.hands if seat in h.seats and h.account == account), None)
        link = f"{self.public_url}/play/{hand.token}" if hand else f"{self.public_url}/account"
        others = ", ".join(translate(table.seat_name(s.seat)) for s in table.seats
                           if s.seat != seat)
        leave = f"{self.public_url}/unsubscribe/{self.unsubscribe_token(account)}"
        words = {"game": gettext(table.title), "others": others, "link": link, "leave": leave}
        message = EmailMessage(policy=POLICY)
        message["To"] = address
        message["Subject"] = gettext("parlour: your turn in {game} with {others}").format(**words)
        message["List-Unsubscribe"] = f"<{leave}>"
        message.set_content(gettext(
            "It is your turn in {game} with {others}.\n\nPlay your move: {link}\n\n"
            "No more of these e-mails: {leave}\n").format(**words))
        message["Content-Language"] = current()  # (after the content: it replaces Content-*)
        return message

    def _send(self, message: EmailMessage, recipient: str) -> None:
        assert self.smtp is not None
        self.smtp.send(message, recipient)


def _spend(session: Session, key: str, cap: int, window: float, now: float) -> float:
    """Count one mail for ``key`` if fewer than ``cap`` went in the last ``window`` seconds
    (0.0), else the seconds until one may. The key's row is made if missing and locked (on
    PostgreSQL, ``FOR UPDATE``; SQLite has one writer) for the rest of the transaction, so
    simultaneous requests, in any process, count one after the other."""
    if cap <= 0:
        return window
    upsert = postgresql.insert if session.get_bind().dialect.name == "postgresql" else (
        sqlite.insert)
    session.execute(upsert(MailQuotaRow).values(key=key, sent=[], last_at=now)
                    .on_conflict_do_nothing(index_elements=["key"]))
    row = session.execute(select(MailQuotaRow).where(MailQuotaRow.key == key)
                          .with_for_update()).scalar_one()
    recent = sorted(t for t in row.sent if t > now - window)
    if len(recent) >= cap:
        return max(recent[-cap] + window - now, 1.0)
    row.sent = [*recent, now]
    row.last_at = now
    return 0.0
