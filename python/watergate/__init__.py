"""Watergate (Matthias Cramer, 2019) as a rules-as-data engine, from Python.

>>> import watergate
>>> game = watergate.load()                      # the shipped game
>>> game = watergate.load(data="my-cards/")      # a designer's folder, as `--data`
>>> game = watergate.load(variant="house.ron")   # a house-rule variant, as `--variant`

A relative ``data`` or ``variant`` is taken from the working directory at
the call; the game holds its paths as absolute ones (``Game.data``,
``Game.variant``), so a pickled game, ``Match`` or OpenSpiel state loads the
same files again from any directory, and refuses them (:class:`DataError`)
if they have changed since. A simulation's report names the game by the
paths as given, as the CLI does with them.

``load_files(game.files())`` loads the same game from its files held in
memory (a worker that shares no disk with the caller).

A game that does not load raises :class:`DataError`, whose message lists
every problem as ``path:line:col: message`` and whose ``problems`` holds
them as ``(path, line, column, message)`` tuples. A game that loads has
``Game.warnings``, ``watergate check``'s advice as the same tuples.

Studies return plain Python data, the same as the CLI's ``--json`` for the
same options and seed (``pandas.DataFrame`` takes their lists as they are)::

    watergate.simulate(games=2000, editor="heuristic", nixon="ismcts:100")
    watergate.simulate(games=2000, variant="house.ron", against="base")
    watergate.sweep(["card.nixon.howard_hunt.value=1,2,3"], games=200)
    watergate.ladder(["random", "heuristic", "ismcts:100"], games=20)
    watergate.merge([shard1, shard2])          # simulate(..., shard="1/2") and "2/2"

Long calls release the GIL, show a progress line on stderr only with
``progress=True``, and stop cleanly on Ctrl-C: the games finished so far
come back, marked ``"partial": True``, as the CLI does.

The OpenSpiel game lives in :mod:`watergate.openspiel` (it needs the
``open_spiel`` package): ``import watergate.openspiel`` registers
``python_watergate`` with ``pyspiel``.
"""

# The annotations stay text (PEP 563): `str | None` on Python 3.9, which
# the package supports, and which cannot evaluate it.
from __future__ import annotations

import json as _json
import operator as _operator
import os as _os
from collections.abc import Iterable as _Iterable
from collections.abc import Mapping as _Mapping
from typing import Any as _Any
from typing import SupportsIndex as _SupportsIndex
from typing import overload as _overload

from watergate import _engine
from watergate._engine import MAX_SEEDS, DataError, Game, Match, load, load_files, restore_match

__all__ = ["MAX_SEEDS", "DataError", "Game", "Match", "ladder", "load", "load_files", "merge",
           "restore_match", "simulate", "sweep"]


def _game(game: Game | None, data: str | _os.PathLike[str] | None,
          variant: str | _os.PathLike[str] | None) -> Game:
    if game is not None:
        if data is not None or variant is not None:
            raise ValueError("give either game or data/variant, not both")
        if not isinstance(game, Game):
            raise TypeError(f"game: expected a watergate.Game, got {type(game).__name__}")
        return game
    return load(data, variant)


_U64_MAX = 2**64 - 1


# Left out (None) stays None, a number comes back an int: the overloads
# say so to mypy, which checks the studies' calls to the engine with them.
@_overload
def _whole(name: str, value: None, least: int, expected: str) -> None: ...
@_overload
def _whole(name: str, value: _SupportsIndex, least: int, expected: str) -> int: ...


def _whole(name: str, value: _SupportsIndex | None, least: int, expected: str) -> int | None:
    """A count or a seed checked as the CLI checks it, before it reaches the
    engine: there, a negative number raised ``OverflowError``, which neither
    ``except ValueError`` nor ``except TypeError`` catches."""
    if value is None:
        return None
    # Anything with `__index__` (a NumPy integer from a grid of values) is a
    # whole number, as `EngineBot` and the engine's own arguments take it.
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected a whole number, got bool")
    try:
        value = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected a whole number, got {type(value).__name__}") from None
    if value < least:
        raise ValueError(f"{name}: {expected}, got {value}")
    if value > _U64_MAX:
        raise ValueError(f"{name}: {_AT_MOST if expected.startswith('expected at least') else expected}, "
                         f"got {value}")
    return value


# What a count past 64 bits is told (not "at least 1").
_AT_MOST = f"expected at most {_U64_MAX} (the engine counts in 64 bits)"


def _slice(value: tuple[_SupportsIndex, _SupportsIndex] | None) -> tuple[int, int] | None:
    """``slice=(first_game, games)`` checked as the counts are."""
    if value is None:
        return None
    try:
        first, games = value
    except (TypeError, ValueError):
        raise TypeError(f"slice: expected a pair (first_game, games), got {value!r}") from None
    return (_whole("slice's first_game", first, 0, "expected at least 0"),
            _whole("slice's games", games, 1, "expected at least 1 (a slice of no games plays nothing)"))


@_overload
def _counts(games: None, seed: _SupportsIndex,
            threads: _SupportsIndex | None) -> tuple[None, int, int | None]: ...
@_overload
def _counts(games: _SupportsIndex, seed: _SupportsIndex,
            threads: _SupportsIndex | None) -> tuple[int, int, int | None]: ...


def _counts(games: _SupportsIndex | None, seed: _SupportsIndex,
            threads: _SupportsIndex | None) -> tuple[int | None, int, int | None]:
    return (
        _whole("games", games, 1, "expected at least 1"),
        _whole("seed", seed, 0, f"expected a seed: a whole number from 0 to {_U64_MAX}"),
        _whole("threads", threads, 1,
               "expected at least 1 thread (leave threads out to use every core)"),
    )


def _json_dict(text: str) -> dict[str, _Any]:
    """A study's result, the JSON text of an object, as a dict."""
    result: dict[str, _Any] = _json.loads(text)
    return result


# The annotations of the studies are what `mypy --strict` checks a caller's
# code against (the package is typed: py.typed); without them every call was
# "untyped" there. python/tests/test_typing.py checks an example.
def simulate(games: _SupportsIndex | None = None, seed: _SupportsIndex = 1,
             editor: str = "random", nixon: str = "random", *,
             data: str | _os.PathLike[str] | None = None,
             variant: str | _os.PathLike[str] | None = None, game: Game | None = None,
             against: str | _os.PathLike[str] | Game | None = None,
             precision: float | None = None, shard: str | None = None,
             slice: tuple[_SupportsIndex, _SupportsIndex] | None = None,
             threads: _SupportsIndex | None = None, progress: bool = False) -> dict[str, _Any]:
    """``watergate simulate --json``: games between two agents, as a dict.

    The same options and seed give the CLI's figures. Every parameter:

    - ``games``: how many games the run has (at least 1); by default 1000,
      or with ``precision`` 1,000,000, then the most it plays.
    - ``seed``: the run's seed (0 to 2**64 - 1): game ``i`` plays with a seed
      derived from it, so the same seed plays the same games.
    - ``editor``, ``nixon``: each side's agent, as on the command line:
      ``"random"``, ``"heuristic"``, ``"ismcts:N"`` (N iterations) or
      ``"ismcts:Nms"`` (N milliseconds a decision, which no seed replays),
      with search options after it (``"ismcts:300:reuse"``; ``watergate
      simulate --help`` lists them). Both ``"random"`` by default.
    - ``data``, ``variant``: the game's files, as :func:`load` takes them (a
      data folder, a house-rule variant file); or ``game``: a loaded
      :class:`Game`. Give ``game`` or ``data``/``variant``, not both; none of
      them plays the shipped game.
    - ``against``: also plays the same games (same seeds, same agents) with
      another game and compares the two: ``"shipped"``, ``"base"`` (this game
      without its variant), a data folder or a variant file (as
      ``--against``), or a :class:`Game`.
    - ``precision``: plays until the 95 % interval (of the difference in the
      Editor's win rate with ``against``, of her win rate otherwise) is at
      most this wide on each side, e.g. ``0.01`` (between 0 and 0.5). The
      rule is looked at after each 500 games, so the result does not depend
      on ``threads``; it stops at ``games`` all the same, and the result's
      ``"precision"`` says whether the width was reached (``"met"``). Not
      with ``shard`` or ``slice``.
    - ``shard``: ``"I/N"`` plays only slice I of N (from 1) of the run's
      games, for :func:`merge`.
    - ``slice``: ``(first_game, games)`` plays only those games of the run
      (``first_game`` from 0; one game or more). Give ``shard`` or
      ``slice``, not both.
    - ``threads``: how many threads play the games (at least 1); by default
      one per core. The results do not depend on it.
    - ``progress``: ``True`` draws a line on stderr, redrawn every 50 ms:
      the games done out of the run's (or the slice's) and the games per
      second. Off by default.

    Ctrl-C stops the run: the games finished so far come back, marked
    ``"partial": True``. Bad options raise ``ValueError`` or ``TypeError``;
    files that do not load (an ``against`` file among them),
    :class:`DataError`, itself a ``ValueError``.
    """
    games, seed, threads = _counts(games, seed, threads)
    game = _game(game, data, variant)
    spec, other = (None, against) if isinstance(against, Game) else (against, None)
    if spec is not None and not isinstance(spec, str):
        spec = str(spec)
    return _json_dict(_engine.simulate_json(
        game, games, seed, editor, nixon, spec, other, precision, shard,
        _slice(slice), threads, progress))


def merge(results: _Iterable[_Mapping[str, _Any]]) -> dict[str, _Any]:
    """``watergate merge --json``: shards of one run (``simulate`` results)
    combined exactly; a game counted twice, or a shard of another run, raises."""
    return _json_dict(_engine.merge_json([_json.dumps(r) for r in results]))


def ladder(agents: str | _Iterable[str] = ("random", "heuristic", "ismcts:30", "ismcts:100"),
           games: _SupportsIndex = 20, seed: _SupportsIndex = 1, *,
           data: str | _os.PathLike[str] | None = None,
           variant: str | _os.PathLike[str] | None = None, game: Game | None = None,
           threads: _SupportsIndex | None = None, progress: bool = False) -> dict[str, _Any]:
    """``watergate ladder --json``: every agent against every agent, both sides.
    ``agents`` is a list, or one string as ``--agents`` takes it
    (``"random,heuristic"``; spaces after the commas are dropped)."""
    games, seed, threads = _counts(games, seed, threads)
    return _json_dict(_engine.ladder_json(
        _game(game, data, variant), _agent_list(agents), games, seed, threads, progress))


def _agent_list(agents: str | _Iterable[str]) -> list[str]:
    """``agents`` as a list: one string is split at its commas, the spaces
    around each name dropped (``"random, heuristic"``)."""
    if isinstance(agents, str):
        return [a.strip() for a in agents.split(",")]
    return list(agents)


def sweep(params: str | _Iterable[str], games: _SupportsIndex = 200, seed: _SupportsIndex = 1,
          editor: str = "heuristic", nixon: str = "heuristic", *,
          data: str | _os.PathLike[str] | None = None,
          variant: str | _os.PathLike[str] | None = None, game: Game | None = None,
          shard: str | None = None, threads: _SupportsIndex | None = None,
          progress: bool = False) -> dict[str, _Any]:
    """``watergate sweep --json``: the same games at every value of one or two
    parameters (``"NAME=V1,V2,..."``, as ``--param``)."""
    games, seed, threads = _counts(games, seed, threads)
    if isinstance(params, str):
        params = [params]
    return _json_dict(_engine.sweep_json(
        _game(game, data, variant), list(params), games, seed, editor, nixon, shard, threads,
        progress))
