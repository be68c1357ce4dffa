"""Studying positions: the analysis board and the puzzles.

- :mod:`.analyse`: the analysis board's answers (who wins a position, with which moves, why);
- :mod:`.puzzles`: the puzzles served, their ratings and the puzzle ratings of accounts;
- :mod:`.puzzle_mining`: puzzles made from the server's own finished games.

Above accounts (an account's puzzle rating); the web's routes use it.
"""
