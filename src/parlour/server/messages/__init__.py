"""The messages of a live table: what a client may send and what each listener is sent.

- :mod:`.protocol`: the client's messages, checked before anything else looks at them;
- :mod:`.validation`: a message or request that does not fit its model, in the reader's words;
- :mod:`.views`: everything a seat or a spectator receives, built from ``state.view(seat)``;
- :mod:`.outgoing`: what waits to be sent to a websocket, bounded in bytes.

Above the persistence group (a seat's hand is a stored record); the tables use it.
"""
