"""Players who come back: accounts, sessions, passkeys, ratings, matchmaking and notifications.

Each module owns one concern (see docs/web.md, "Accounts"):

- :mod:`.models`: the rows, on the store's ``Base`` (the schema revisions of
  :mod:`parlour.server.persistence.migrations` bring an older database up to date);
- :mod:`.passwords`: the password policy (NIST SP 800-63B) and Argon2id hashing off the loop;
- :mod:`.sessions`: opaque session ids, stored hashed, and the cookie;
- :mod:`.throttle`: sign-in attempts limited per address and per account, in the database;
- :mod:`.accounts`: signing up, in and out, changing the password, deleting an account, and
  the guest games that join it;
- :mod:`.passkeys`: WebAuthn registration and sign-in (the ``webauthn`` package);
- :mod:`.ratings`: Glicko-2 updates stored in the transaction that ends a rated game,
  profiles and leaderboards;
- :mod:`.matchmaking`: "Play someone now", a queue in the database;
- :mod:`.mail`: the optional turn e-mails (``--smtp URL``).

Accounts carry a ``bot`` flag and a kind of credential (``sessions``) that personal API tokens
can sit beside; neither bots nor tokens are built here (issue 31).
"""
