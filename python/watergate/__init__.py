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

import json as _json
import operator as _operator

from watergate import _engine
from watergate._engine import MAX_SEEDS, DataError, Game, Match, load, load_files, restore_match

__all__ = ["MAX_SEEDS", "DataError", "Game", "Match", "ladder", "load", "load_files", "merge",
           "restore_match", "simulate", "sweep"]


def _game(game, data, variant):
    if game is not None:
        if data is not None or variant is not None:
            raise ValueError("give either game or data/variant, not both")
        if not isinstance(game, Game):
            raise TypeError(f"game: expected a watergate.Game, got {type(game).__name__}")
        return game
    return load(data, variant)


_U64_MAX = 2**64 - 1


def _whole(name, value, least, expected):
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


def _slice(value):
    """``slice=(first_game, games)`` checked as the counts are."""
    if value is None:
        return None
    try:
        first, games = value
    except (TypeError, ValueError):
        raise TypeError(f"slice: expected a pair (first_game, games), got {value!r}") from None
    return (_whole("slice's first_game", first, 0, "expected at least 0"),
            _whole("slice's games", games, 1, "expected at least 1 (a slice of no games plays nothing)"))


def _counts(games, seed, threads):
    return (
        _whole("games", games, 1, "expected at least 1"),
        _whole("seed", seed, 0, f"expected a seed: a whole number from 0 to {_U64_MAX}"),
        _whole("threads", threads, 1,
               "expected at least 1 thread (leave threads out to use every core)"),
    )


def simulate(games=None, seed=1, editor="random", nixon="random", *, data=None, variant=None,
             game=None, against=None, precision=None, shard=None, slice=None, threads=None,
             progress=False):
    """``watergate simulate --json``: games between two agents, as a dict.

    ``against`` compares with another game on the same seeds: ``"shipped"``,
    ``"base"``, a data folder or a variant file (as ``--against``), or a
    :class:`Game`. ``shard="I/N"`` plays slice I of N (for :func:`merge`);
    ``slice=(first_game, games)`` plays those games of the run (one game or
    more); give one or the other, not both.
    """
    games, seed, threads = _counts(games, seed, threads)
    game = _game(game, data, variant)
    spec, other = (None, against) if isinstance(against, Game) else (against, None)
    if spec is not None and not isinstance(spec, str):
        spec = str(spec)
    return _json.loads(_engine.simulate_json(
        game, games, seed, editor, nixon, spec, other, precision, shard,
        _slice(slice), threads, progress))


def merge(results):
    """``watergate merge --json``: shards of one run (``simulate`` results)
    combined exactly; a game counted twice, or a shard of another run, raises."""
    return _json.loads(_engine.merge_json([_json.dumps(r) for r in results]))


def ladder(agents=("random", "heuristic", "ismcts:30", "ismcts:100"), games=20, seed=1, *,
           data=None, variant=None, game=None, threads=None, progress=False):
    """``watergate ladder --json``: every agent against every agent, both sides.
    ``agents`` is a list, or one string as ``--agents`` takes it
    (``"random,heuristic"``)."""
    games, seed, threads = _counts(games, seed, threads)
    if isinstance(agents, str):
        agents = agents.split(",")
    return _json.loads(_engine.ladder_json(
        _game(game, data, variant), list(agents), games, seed, threads, progress))


def sweep(params, games=200, seed=1, editor="heuristic", nixon="heuristic", *, data=None,
          variant=None, game=None, shard=None, threads=None, progress=False):
    """``watergate sweep --json``: the same games at every value of one or two
    parameters (``"NAME=V1,V2,..."``, as ``--param``)."""
    games, seed, threads = _counts(games, seed, threads)
    if isinstance(params, str):
        params = [params]
    return _json.loads(_engine.sweep_json(
        _game(game, data, variant), list(params), games, seed, editor, nixon, shard, threads,
        progress))
