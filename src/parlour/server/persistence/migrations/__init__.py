"""The database's schema, versioned with Alembic: one revision per change, on SQLite (batch
mode) and PostgreSQL alike.

- :mod:`.schema`: which revision a database is at, and bringing it to the head
  (``parlour db upgrade``, ``parlour serve --upgrade``, a new database created at the head).
- :mod:`.models`: every table the code declares (the models' metadata), for autogenerate and
  the test that the revisions build exactly that.
- :mod:`.baseline`: revision 0001's schema, frozen; ``versions/``: the revisions; ``env.py``:
  how Alembic runs them (on the connection :mod:`.schema` hands it).

Writing a revision: ``docs/operating.md`` ("Changing the schema").
"""
