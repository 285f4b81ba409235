"""Watergate (Matthias Cramer, 2019) as a rules-as-data engine, from Python.

>>> import watergate
>>> game = watergate.load()                      # the shipped game
>>> game = watergate.load(data="my-cards/")      # a designer's folder, as `--data`
>>> game = watergate.load(variant="house.ron")   # a house-rule variant, as `--variant`

``load_files(game.files())`` loads the same game from its files held in
memory (a worker that shares no disk with the caller).

A game that does not load raises :class:`DataError`, whose message lists
every problem as ``path:line:col: message`` and whose ``problems`` holds
them as ``(path, line, column, message)`` tuples.

The OpenSpiel game lives in :mod:`watergate.openspiel` (it needs the
``open_spiel`` package): ``import watergate.openspiel`` registers
``python_watergate`` with ``pyspiel``.
"""

from watergate._engine import DataError, Game, Match, load, load_files, restore_match

__all__ = ["DataError", "Game", "Match", "load", "load_files", "restore_match"]
