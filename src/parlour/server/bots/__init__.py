"""Programs that play (issue 31): bot accounts, personal API tokens and the Bot API.

- :mod:`.bots`: bot accounts, marked as such everywhere;
- :mod:`.tokens`: personal API tokens (``Authorization: Bearer``), stored hashed;
- :mod:`.botapi`: the Bot API's streams, newline-delimited JSON;
- :mod:`.resends`: a resent Bot API move answered as the first was, and applied once.

Above accounts and tables; the web's routes use it.
"""
