"""Passkeys: WebAuthn registration and sign-in with the ``webauthn`` package (py_webauthn).

A ceremony's challenge is stored in the database (so the answer may reach any process), under
the hash of a random ceremony id the page sends back, for ``passkey_prompt_seconds`` and used
once; one address holds at most ``passkey_prompts_per_client`` open prompts, and every address
together ``passkey_prompts_open``, so a flood from a few addresses cannot use up the prompts
everyone else needs. The relying party is the host the page was served from (``rp_id``, the
name without its port) and the origin the browser reports must be that page's. Passkeys are
discoverable (resident) credentials, so signing in needs no username; the user handle is the
account's random ``handle``, never its number. Passkey sign-ins count against the address
like passwords, before the answer is checked.
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from parlour.i18n import Message, text_of
from parlour.server.accounts.accounts import Account
from parlour.server.accounts.models import AccountRow, CeremonyRow, PasskeyRow
from parlour.server.accounts.sessions import digest
from parlour.server.accounts.throttle import Throttle, TooManyAttempts
from parlour.server.limits import Limits
from parlour.server.persistence.store import Store


class PasskeyError(ValueError):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Passkeys:
    def __init__(self, store: Store, limits: Limits, throttle: Throttle) -> None:
        self.store = store
        self.limits = limits
        self.throttle = throttle

    # -- ceremonies ----------------------------------------------------------------------------
    def _begin(self, challenge: bytes, purpose: str, account_id: int | None,
               client: str) -> str:
        ceremony = secrets.token_urlsafe(24)
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            if self.store.engine.dialect.name == "postgresql":
                # one process at a time counts this address's prompts (SQLite: one writer)
                session.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                {"key": int(digest(f"passkey-prompts:{client}")[:15], 16)})
            session.execute(delete(CeremonyRow).where(CeremonyRow.expires_at < now))
            mine = session.scalar(select(func.count()).select_from(CeremonyRow).where(
                CeremonyRow.client == client)) or 0
            if mine >= self.limits.passkey_prompts_per_client:
                raise PasskeyError(Message(
                    "too many passkey prompts from here at once: answer one, or try again in"
                    " a minute"), 429)
            open_now = session.scalar(select(func.count()).select_from(CeremonyRow)) or 0
            if open_now >= self.limits.passkey_prompts_open:
                raise PasskeyError(Message("too many passkey prompts at once: try again soon"), 503)
            session.add(CeremonyRow(id_hash=digest(ceremony), challenge=challenge,
                                    account_id=account_id, purpose=purpose, client=client,
                                    expires_at=now + self.limits.passkey_prompt_seconds))
        return ceremony

    def _take(self, ceremony: str, purpose: str, account_id: int | None) -> bytes:
        """The ceremony's challenge, used up; :class:`PasskeyError` if it is unknown, old, or
        another's."""
        with Session(self.store.engine) as session, session.begin():
            row = session.get(CeremonyRow, digest(ceremony[:64]))
            if row is None:
                raise PasskeyError(Message("that passkey prompt has expired: try again"))
            session.delete(row)
            if (row.expires_at < time.time() or row.purpose != purpose
                    or row.account_id != account_id):
                raise PasskeyError(Message("that passkey prompt has expired: try again"))
            return bytes(row.challenge)

    # -- registration --------------------------------------------------------------------------
    def register_options(self, account: Account, rp_id: str, client: str) -> dict[str, Any]:
        with Session(self.store.engine) as session:
            row = session.get(AccountRow, account.id)
            assert row is not None
            existing = session.scalars(select(PasskeyRow.credential_id).where(
                PasskeyRow.account_id == account.id)).all()
        if len(existing) >= self.limits.passkeys_per_account:
            raise PasskeyError(Message(
                "you have {n} passkeys: remove one first",
                n=len(existing)), 409)
        options = generate_registration_options(
            rp_id=rp_id, rp_name="parlour", user_name=account.username,
            user_id=bytes(row.handle), user_display_name=account.username,
            exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c))
                                 for c in existing],
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED),
        )
        ceremony = self._begin(options.challenge, "register", account.id, client)
        return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}

    def register(self, account: Account, ceremony: str, credential: dict[str, Any],
                 rp_id: str, origin: str) -> dict[str, Any]:
        challenge = self._take(ceremony, "register", account.id)
        try:
            verified = verify_registration_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
                expected_origin=origin)
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise PasskeyError(Message(
                "that passkey could not be registered: {exc}",
                exc=exc)) from None
        now = time.time()
        with Session(self.store.engine) as session, session.begin():
            count = session.scalar(select(func.count()).select_from(PasskeyRow).where(
                PasskeyRow.account_id == account.id)) or 0
            name = f"Passkey {count + 1}"
            cid = bytes_to_base64url(verified.credential_id)
            if session.get(PasskeyRow, cid) is not None:
                raise PasskeyError(Message("that passkey is registered already"), 409)
            session.add(PasskeyRow(credential_id=cid, account_id=account.id,
                                   public_key=verified.credential_public_key,
                                   sign_count=verified.sign_count, name=name, created_at=now))
        return {"id": cid, "name": name}

    def listed(self, account: Account) -> list[dict[str, Any]]:
        with Session(self.store.engine) as session:
            rows = session.scalars(select(PasskeyRow).where(
                PasskeyRow.account_id == account.id).order_by(PasskeyRow.created_at)).all()
        return [{"id": r.credential_id, "name": r.name, "created_at": r.created_at,
                 "used_at": r.used_at} for r in rows]

    def remove(self, account: Account, credential_id: str) -> bool:
        with self.store.engine.begin() as connection:
            return bool(connection.execute(delete(PasskeyRow).where(
                PasskeyRow.account_id == account.id,
                PasskeyRow.credential_id == credential_id)).rowcount)

    # -- signing in ----------------------------------------------------------------------------
    def sign_in_options(self, rp_id: str, client: str) -> dict[str, Any]:
        options = generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED)
        ceremony = self._begin(options.challenge, "sign_in", None, client)
        return {"ceremony": ceremony, "options": json.loads(options_to_json(options))}

    def sign_in(self, ceremony: str, credential: dict[str, Any], rp_id: str, origin: str,
                address: str) -> int:
        """The account a passkey answer proves; :class:`PasskeyError` (401) otherwise."""
        key = [f"addr:{address[:32]}"]
        try:
            self.throttle.begin(key)  # counted before the check, as a password is
        except TooManyAttempts as exc:
            raise PasskeyError(text_of(exc), 429) from None
        outcome = "unchecked"  # an expired prompt checks nothing
        try:
            challenge = self._take(ceremony, "sign_in", None)
            outcome = "failed"
            verified, row, owner = self._check(credential, challenge, rp_id, origin)
            outcome = "succeeded"
        finally:
            self.throttle.end(key, outcome)
        with self.store.engine.begin() as connection:
            connection.execute(update(PasskeyRow).where(
                PasskeyRow.credential_id == row.credential_id).values(
                sign_count=verified.new_sign_count, used_at=time.time()))
        return int(owner.id)

    def _check(self, credential: dict[str, Any], challenge: bytes, rp_id: str, origin: str
               ) -> tuple[Any, PasskeyRow, AccountRow]:
        """The verified answer, its passkey and its account; :class:`PasskeyError` (401)."""
        refused = PasskeyError(Message("that passkey does not sign in to an account here"), 401)
        cid = str(credential.get("id", ""))[:1400]
        with Session(self.store.engine) as session:
            row = session.get(PasskeyRow, cid)
            owner = session.get(AccountRow, row.account_id) if row is not None else None
        if row is None or owner is None or owner.deleted_at is not None:
            raise refused
        handle = (credential.get("response") or {}).get("userHandle")
        try:
            if handle and base64url_to_bytes(str(handle)) != bytes(owner.handle):
                raise refused
            verified = verify_authentication_response(
                credential=credential, expected_challenge=challenge, expected_rp_id=rp_id,
                expected_origin=origin, credential_public_key=bytes(row.public_key),
                credential_current_sign_count=row.sign_count)
        except (WebAuthnException, ValueError, KeyError, TypeError):
            raise refused from None
        return verified, row, owner
