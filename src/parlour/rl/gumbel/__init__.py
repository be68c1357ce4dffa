"""Gumbel AlphaZero self-play training on the batched engines (PyTorch CPU, the train extra).

``parlour train clobber --minutes 60 --out DIR`` and ``examples/train_clobber.py`` run
:func:`~parlour.rl.gumbel.train.train`; the network it writes plays as the ``net`` agent with
numpy alone (:mod:`parlour.agents.learned`).
"""
