"""Learned players: policy-value networks run on numpy, and the Gumbel search that uses them.

- :mod:`~parlour.agents.learned.network`: the network file format (``.npz``: a JSON
  description of the architecture and the game it fits, plus the weights under PyTorch's
  names) and its inference in numpy alone, so a trained player needs no PyTorch to play.
- :mod:`~parlour.agents.learned.search`: Gumbel MCTS (Danihelka et al., ICLR 2022) over many
  positions at once, numpy only. The ``net`` agent searches with it, and self-play training
  (:mod:`parlour.rl.gumbel`) runs the very same code over hundreds of games together.
- :mod:`~parlour.agents.learned.games`: what the search needs of each game (positions as
  arrays, children, legal moves, tensors), built on the batched engines (:mod:`parlour.batch`).
- ``networks/``: the networks that ship with parlour (``net`` plays with them by default).
"""
