"""Watergate as an OpenSpiel game: ``python_watergate``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import watergate.openspiel  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_watergate")
    game = pyspiel.load_game("python_watergate", {"variant": "house.ron"})

Parameters:

- ``data``: a data folder (as ``watergate --data``); empty for the shipped game.
- ``variant``: a house-rule variant file (as ``--variant``); empty for none.
  A relative path is taken from the working directory when the game is
  loaded, and the game's parameters then hold it as an absolute path (so a
  pickled game or state loads the same files from any directory).
- ``chance``: ``"explicit"`` (default): every card dealt and every token drawn
  is a chance node, each outcome with its probability. ``"seeded"``: one
  chance node at the root picks one of ``seeds`` seeds, and the engine's own
  generator deals from it (game ``k`` deals as the engine's seed ``k``).
- ``seeds``: with ``chance="seeded"``, how many seeds the root chooses among
  (1 to 1,048,576: the root lists one action per seed).
- ``fingerprint``: the files' fingerprint (``watergate.Game.fingerprint`` in
  16 hex digits), or empty. The game fills it in when it loads, so the game's
  string, and with it a pickled game, names the files it was made from;
  loading a game whose files have changed since then is refused. Leave it
  empty to load whatever the files are now; any other text raises
  ``ValueError`` (it is no fingerprint).

Values are ``str``, ``int`` and ``bool`` only: ``pyspiel.load_game`` converts
them itself, before the game sees them, refusing a ``pathlib.Path`` or a NumPy
integer (and an int past 2**31 - 1) with its own errors ("'PosixPath' object
is not iterable", "Unable to cast Python instance ..."). Give ``str(path)`` and
``int(n)``, or call this module's :func:`load_game`, which converts them and
names a value out of range.

Player 0 is the Editor, player 1 Nixon. The returns are +1 for the winner and
-1 for the loser (there are no draws). Actions are the engine's options,
numbered once for the whole game; their strings are the engine's notation.
Information-state strings are everything the player has seen since the start
(each event as the engine narrates it to that player, each choice they were
told of, their hand after each draw) followed by what they see now; the other
player's pass in a reaction window, and Nixon's pick of the token to turn up,
are not told (at the table neither says how many options there were).
Observation strings and both tensors are what they see now (the engine's view
of that player, with the decision they take when it is theirs). They hide
exactly what the rules hide: the opponent's hand, the order of every deck, the
bag, and for the Editor which tokens lie face down on the research track. The
tensor's parts, in order, are ``game.engine.tensor_layout`` (name, length);
README.md ("The observation tensor") says what each holds.
"""

# The annotations stay text (PEP 563), as in watergate/__init__.py: the
# package supports Python 3.9, which cannot evaluate `X | None`.
from __future__ import annotations

import math
import operator
import os
import random
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal, SupportsFloat, cast

import numpy as np
import numpy.typing as npt
import pyspiel

from watergate import _engine

#: The bound OpenSpiel is told a game's length stays under, in actions
#: (chance included): for the shipped game, far above the longest seen in
#: 20,000 random games (465; see BENCHMARKS.md). It is observed, not proven,
#: and a variant with much larger numbers (hands of 20 cards, 50 momentum
#: tokens) can exceed it: the parameter ``max_game_length`` sets another,
#: and a game that reaches its bound unfinished is stopped there with an
#: error (README: The engine in Python).
MAX_GAME_LENGTH = 2000

_DEFAULTS: dict[str, Any] = {"data": "", "variant": "", "chance": "explicit", "seeds": 1000,
                             "fingerprint": "", "max_game_length": MAX_GAME_LENGTH}

#: A fingerprint as the game writes it: 64 bits in 16 hex digits.
_FINGERPRINT = re.compile(r"[0-9a-fA-F]{16}")

_GAME_TYPE = pyspiel.GameType(
    short_name="python_watergate",
    long_name="Watergate (rules-as-data engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


#: The largest ``max_game_length``: OpenSpiel keeps it, as every int
#: parameter, in a C++ ``int``.
MAX_GAME_LENGTH_BOUND = 2**31 - 1


def load_game(params: Mapping[str, Any] | None = None) -> WatergateGame:
    """``pyspiel.load_game("python_watergate", params)``, taking a path
    (``os.PathLike``, such as ``pathlib.Path``) or a NumPy integer where
    pyspiel takes only ``str`` and ``int``, and refusing a bad value with
    an error naming the parameter.

    pyspiel converts the parameters itself, before the game sees them, and
    takes ``str``, ``int`` (a C++ ``int``: at most 2**31 - 1), ``float``
    and ``bool`` only; anything else failed there with pyspiel's own words
    (a ``Path``: "'PosixPath' object is not iterable"; ``2**31``: "Unable
    to cast Python instance of type <class 'int'> to C++ type '?'")."""
    converted: dict[str, Any] = {}
    for name, value in (params or {}).items():
        if isinstance(value, os.PathLike):
            value = os.fspath(value)
        elif not isinstance(value, (bool, int, str, float)) and hasattr(type(value), "__index__"):
            value = operator.index(value)
        converted[name] = value
    # Every int parameter has its range (within a C++ int's), checked here
    # before pyspiel converts it.
    _check({**_DEFAULTS, **converted})
    game: WatergateGame = pyspiel.load_game(_GAME_TYPE.short_name, converted)
    return game


def _check(params: Mapping[str, Any]) -> None:
    """Refuses a parameter the game does not have, or a value of the wrong
    type or out of range, with an error naming the parameter."""
    for name, value in params.items():
        if name not in _DEFAULTS:
            raise ValueError(f"python_watergate has no parameter {name!r}")
        if not isinstance(value, type(_DEFAULTS[name])):
            raise TypeError(
                f"python_watergate parameter {name!r}: expected "
                f"{type(_DEFAULTS[name]).__name__}, got {type(value).__name__}")
    if params["chance"] not in ("explicit", "seeded"):
        raise ValueError(
            f"python_watergate parameter 'chance': expected 'explicit' or "
            f"'seeded', got {params['chance']!r}")
    if not 1 <= params["seeds"] <= _engine.MAX_SEEDS:
        raise ValueError(
            f"python_watergate parameter 'seeds': expected 1 to "
            f"{_engine.MAX_SEEDS}, got {params['seeds']}")
    if not 1 <= params["max_game_length"] <= MAX_GAME_LENGTH_BOUND:
        raise ValueError(
            f"python_watergate parameter 'max_game_length': expected 1 to "
            f"{MAX_GAME_LENGTH_BOUND} (2**31 - 1, OpenSpiel's int) actions, got "
            f"{params['max_game_length']}")
    # Checked for its shape before the files are read: a fingerprint
    # mistyped or cut short was otherwise told that the files had
    # changed since, which sends one looking at files that have not.
    if params["fingerprint"] and not _FINGERPRINT.fullmatch(params["fingerprint"]):
        raise ValueError(
            f"python_watergate parameter 'fingerprint': expected the files' "
            f"fingerprint as 16 hex digits (watergate.Game.fingerprint written "
            f"format(fingerprint, '016x'), e.g. '0123456789abcdef'), or empty "
            f"to load the files as they are now; got {params['fingerprint']!r}")


def _prepare(given: Mapping[str, Any] | None) -> tuple[_engine.Game, dict[str, Any],
                                                        pyspiel.GameInfo]:
    """The game of the parameters ``given``: its files loaded, its
    parameters as the game keeps them, and what OpenSpiel is told of it;
    refused with an error naming the parameter or the files."""
    params = {**_DEFAULTS, **(given or {})}
    _check(params)
    engine = _engine.load(params["data"] or None, params["variant"] or None)
    # The files by their absolute paths: a pickled game (or state) loads
    # them again from any working directory.
    params["data"] = str(engine.data) if params["data"] else ""
    params["variant"] = str(engine.variant) if params["variant"] else ""
    # A pickled game is rebuilt from its string: with the fingerprint in
    # it, files changed since are refused, as a pickled state's are,
    # rather than loaded as other rules under the same name.
    loaded = format(engine.fingerprint, "016x")
    if params["fingerprint"] and params["fingerprint"].lower() != loaded:
        message = (
            f"python_watergate: the files of {WatergateGame._files(params)} have "
            f"changed since this game was made (fingerprint "
            f"{params['fingerprint']} then, {loaded} now): it cannot be "
            f"restored with other rules; load the game again without "
            f"'fingerprint'")
        error = _engine.DataError(message)
        # As the engine's own DataErrors: one problem of the game as a whole.
        error.problems = [("", 0, 0, message)]
        raise error
    params["fingerprint"] = loaded
    chance_outcomes = engine.max_chance_outcomes
    if params["chance"] == "seeded":
        chance_outcomes = max(chance_outcomes, params["seeds"])
    info = pyspiel.GameInfo(
        num_distinct_actions=engine.num_distinct_actions,
        max_chance_outcomes=chance_outcomes,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=params["max_game_length"],
    )
    return engine, params, info


class WatergateGame(pyspiel.Game):
    """The game, loaded from its files once."""

    engine: _engine.Game
    chance: Literal["explicit", "seeded"]
    seeds: int
    _prepared: tuple[_engine.Game, dict[str, Any], pyspiel.GameInfo]

    def __new__(cls, params: Mapping[str, Any] | None = None) -> WatergateGame:
        # Whatever can fail runs here, before the game exists: raised in
        # `__init__`, an error's traceback held `self`, a pyspiel.Game with
        # no C++ game yet, and repr() of it (pytest shows a failing test's
        # arguments) crashed the interpreter.
        prepared = _prepare(params)
        game: WatergateGame = super().__new__(cls)
        game._prepared = prepared
        return game

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        self.engine, params, info = self._prepared
        del self._prepared
        self.chance = params["chance"]
        self.seeds = params["seeds"]
        super().__init__(_GAME_TYPE, info, params)

    def __reduce__(self) -> tuple[Callable[[Mapping[str, Any]], WatergateGame],
                                  tuple[dict[str, Any]]]:
        # pyspiel pickles a game as its string and rebuilds it in place, which
        # for a game written in Python keeps the C++ part and loses the
        # Python one (`engine`, `chance`, `seeds`): the copy could not start
        # a game. Rebuilt from its parameters instead, which also keeps a
        # path with a comma or a parenthesis whole.
        return (_load, (self.get_parameters(),))

    @staticmethod
    def _files(params: Mapping[str, Any]) -> str:
        files: str = params["data"] or "the shipped game"
        if params["variant"]:
            files += f" with the variant {params['variant']}"
        return files

    def new_initial_state(self) -> WatergateState:
        return WatergateState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: Mapping[str, Any] | None = None) -> WatergateObserver:
        return WatergateObserver(self, iig_obs_type, params)


def _load(params: Mapping[str, Any]) -> WatergateGame:
    """A pickled ``WatergateGame``: the game of these parameters."""
    game: WatergateGame = pyspiel.load_game(_GAME_TYPE.short_name, params)
    return game


class WatergateState(pyspiel.State):
    """A game in progress: the engine's ``Match`` under OpenSpiel's API."""

    match: _engine.Match

    def __init__(self, game: WatergateGame, match: _engine.Match | None = None) -> None:
        super().__init__(game)
        self.match = match if match is not None else _engine.Match(
            game.engine, game.chance, game.seeds)

    def __setattr__(self, name: str, value: Any) -> None:
        # OpenSpiel's `deserialize_state` makes a new state of the game it is
        # called on and sets the serialized attributes on it, `match` among
        # them, whatever game serialized them: a state of another game (other
        # files, another chance mode) played that game under this one's name.
        if name == "match":
            _same_game(self.get_game(), value)
        super().__setattr__(name, value)

    def current_player(self) -> int:
        return self.match.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.match.current_player():
            return []
        return self.match.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.match.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        # OpenSpiel was told that no game runs longer: an algorithm sizes
        # its buffers by it, or stops a game there as if it had ended. A
        # game that would go past it is stopped before this action, the
        # state unchanged, with what to do, rather than run on unsaid.
        bound = self.get_game().max_game_length()
        if self.move_number() >= bound:
            raise RuntimeError(
                f"python_watergate: this game reached its max_game_length of "
                f"{bound} actions (chance included) without an end; its rules "
                f"play longer games than that bound: load the game with a "
                f"larger 'max_game_length'")
        self.match.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.match.action_to_string(player, action)

    def is_terminal(self) -> bool:
        return self.match.is_terminal()

    def returns(self) -> list[float]:
        return self.match.returns()

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[..., object]) -> WatergateState:
        """A state ``player_id`` cannot tell from this one (same information
        state), everything hidden from them dealt again at random: the deal
        comes from one value of ``probability_sampler`` (a seeded sampler
        gives the same deals again; one that cannot be called without
        arguments is replaced by Python's ``random``). That value is a
        probability in [0, 1), as ``pyspiel.UniformProbabilitySampler(0.0,
        1.0)`` gives; anything else raises ``TypeError`` (not a number) or
        ``ValueError`` (a number outside [0, 1), NaN) naming it."""
        try:
            value = probability_sampler()
        except TypeError:
            value = random.random()
        seed = int(_probability(value) * (1 << 62))
        other: WatergateState = self.clone()
        other.match = self.match.resample(player_id, seed)
        return other

    def __reduce__(self) -> tuple[Callable[..., WatergateState], tuple[Any, ...]]:
        # As OpenSpiel serializes a state (its game, then its actions), but
        # with the game's parameters rather than its string, which cannot
        # carry a path with a comma or a parenthesis; and with the engine's
        # position, which differs from the actions' after a resample.
        return (_replay, (self.get_game().get_parameters(), self.history(), self.match))

    def __str__(self) -> str:
        return str(self.match)


def _same_game(game: WatergateGame, match: _engine.Match) -> None:
    """Refuses ``match`` as the position of a state of ``game`` unless it
    plays ``game``: the same files (by fingerprint) and the same chance."""
    seeds = game.seeds if game.chance == "seeded" else None
    if (match.game.fingerprint == game.engine.fingerprint and match.chance == game.chance
            and match.seeds == seeds):
        return
    raise ValueError(
        f"python_watergate: this state is of another game, "
        f"{_describe(match.game, match.chance, match.seeds)}, not of "
        f"{_describe(game.engine, game.chance, seeds)}: deserialize it with the "
        f"game that serialized it (a pickled state carries its game)")


def _describe(engine: _engine.Game, chance: str, seeds: int | None) -> str:
    """A game as an error names it: its files, their fingerprint, its chance."""
    if engine.data is not None or engine.variant is not None:
        files = WatergateGame._files({"data": str(engine.data or ""),
                                      "variant": str(engine.variant or "")})
    else:  # the shipped game, or files in memory (`load_files`) by their label
        label = engine.labels()[0]
        files = "the shipped game" if label == "shipped game" else label
    dealt = f"chance 'seeded' with {seeds} seeds" if seeds else f"chance {chance!r}"
    return f"{files} (fingerprint {engine.fingerprint:016x}, {dealt})"


def _probability(value: object) -> float:
    """The sampler's ``value`` as a float in [0, 1). Checked here: a value
    outside it gave a negative seed (the engine's error then named the seed,
    not the sampler), a seed past 2**64, or, from 1 to 4, a deal with no
    error at all; NaN gave "cannot convert float NaN to integer", and a
    non-number either a conversion error or, for ``None``, Python's random
    in its place, silently."""
    # A number is what has `__float__`: an int, a float, NumPy's scalars and
    # 0-d arrays, a Fraction. Not a str, which float() reads as the number
    # it spells, nor a bool, a number to Python but no sampler's value.
    if isinstance(value, bool) or not hasattr(type(value), "__float__"):
        raise _not_a_number(value)
    try:
        u = float(cast(SupportsFloat, value))  # it has `__float__`
    except OverflowError:  # an int past every float: 10**400
        u = math.inf
    except (TypeError, ValueError):  # a NumPy array of several numbers
        raise _not_a_number(value) from None
    if not 0.0 <= u < 1.0:  # NaN too: every comparison with it is false
        raise ValueError(
            f"resample_from_infostate: the probability sampler returned {value!r}; "
            f"expected a number in [0, 1) (from 0, below 1), as "
            f"pyspiel.UniformProbabilitySampler(0.0, 1.0) returns")
    return u


def _not_a_number(value: object) -> TypeError:
    return TypeError(
        f"resample_from_infostate: the probability sampler returned {value!r} "
        f"({type(value).__name__}); expected a number in [0, 1), as "
        f"pyspiel.UniformProbabilitySampler(0.0, 1.0) returns")


def _replay(params: Mapping[str, Any], actions: list[int],
            match: _engine.Match) -> WatergateState:
    """A pickled ``WatergateState``: its game's actions played again (they
    are its ``history()``), then its position, which is the actions' own
    unless the state came from ``resample_from_infostate``."""
    state = _load(params).new_initial_state()
    for action in actions:
        state.apply_action(action)
    state.match = match
    return state


class WatergateObserver:
    """Strings and tensors for one player: with perfect recall (the
    information state) the string is all they have seen; the tensor is what
    they see now in both cases."""

    def __init__(self, game: WatergateGame, iig_obs_type: pyspiel.IIGObservationType | None,
                 params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError(
                "python_watergate observes for one player at a time "
                "(private_info=SINGLE_PLAYER)")
        self.perfect_recall: bool = iig_obs_type.perfect_recall
        self.tensor: npt.NDArray[np.float32] = np.zeros(game.engine.tensor_size, np.float32)
        # One piece: OpenSpiel copies each piece of `dict` on its own, and the
        # tensor's 35 parts (`Game.tensor_layout`) as pieces made every
        # tensor OpenSpiel reads a fifth slower.
        self.dict = {"observation": self.tensor}

    def set_from(self, state: WatergateState, player: int) -> None:
        self.tensor[:] = np.frombuffer(state.match.observation_tensor_bytes(player), np.float32)

    def string_from(self, state: WatergateState, player: int) -> str:
        if self.perfect_recall:
            return state.match.information_state_string(player)
        return state.match.observation_string(player)


pyspiel.register_game(_GAME_TYPE, WatergateGame)
