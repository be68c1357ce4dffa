"""The live tables of one server process and the parts that change them.

- :mod:`.hub`: the parts wired together, what the routes talk to;
- :mod:`.table`: one table in memory (game, state, seats, listeners);
- :mod:`.unit`: the unit of work every change to a table runs in;
- :mod:`.registry`, :mod:`.replay`, :mod:`.results`, :mod:`.events`, :mod:`.clocks`: tables
  loaded and rebuilt from the database, how a game ended, what happens outside the rules, time;
- :mod:`.moves`, :mod:`.seats`, :mod:`.creation`, :mod:`.undo`, :mod:`.finishing`,
  :mod:`.chat`, :mod:`.presence`, :mod:`.computer`, :mod:`.timeouts`, :mod:`.archive`,
  :mod:`.cluster`: the parts, one concern each.

Above persistence and messages; accounts, bots, tournaments and the web use it.
"""
