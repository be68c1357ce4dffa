"""What the server keeps: the database and where it lives.

- :mod:`.config`: where the server keeps its data, and how a ``--db`` URL is read;
- :mod:`.store`: the rows, the records read from them and the transactions that write them;
- :mod:`.fanout`: PostgreSQL ``LISTEN``/``NOTIFY`` between server processes on one database;
- :mod:`.devdb`: a throwaway PostgreSQL cluster for the tests and benchmarks.

Above the shared modules only; every other group may import it.
"""
