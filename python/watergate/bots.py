"""This engine's agents as OpenSpiel bots, for matches against OpenSpiel's."""

# The annotations stay text (PEP 563): the package supports Python 3.9.
from __future__ import annotations

from typing import TYPE_CHECKING, SupportsIndex

import pyspiel

from watergate import _engine

if TYPE_CHECKING:
    # Annotations only: importing the game's module registers the game,
    # which importing the bots has never done.
    from watergate.openspiel import WatergateState

_PLAYERS = {0: "player 0 (the Editor)", 1: "player 1 (Nixon)"}

_U64 = 2**64 - 1


class EngineBot(pyspiel.Bot):
    """Plays ``spec`` (``random``, ``heuristic``, ``ismcts:1000``, as on the
    command line) for ``player`` (0, the Editor, or 1, Nixon) in a
    ``python_watergate`` game. It sees only that player's view; its search
    runs in Rust with the GIL released.

    A player other than 0 or 1, a spec that names no agent, or a seed that
    is not a whole number from 0 up raises ValueError here, not at the
    first move. ``step`` moves only for its own player: asked when another
    player (or chance) is to move, or once the game is over, it raises
    ValueError rather than choose that player's move."""

    def __init__(self, game: pyspiel.Game, player: SupportsIndex, spec: str,
                 seed: SupportsIndex = 0) -> None:
        pyspiel.Bot.__init__(self)
        if isinstance(player, bool) or not hasattr(player, "__index__") \
                or player.__index__() not in _PLAYERS:
            raise ValueError(f"EngineBot: player {player!r}: expected 0 (the Editor) "
                             "or 1 (Nixon)")
        if not isinstance(spec, str):
            raise ValueError(f"EngineBot: spec {spec!r}: expected an agent as the command line "
                             "names it (random, heuristic, ismcts:1000)")
        try:
            _engine.agent_spec(spec)
        except ValueError as e:
            raise ValueError(f"EngineBot: {e}") from None
        if isinstance(seed, bool) or not hasattr(seed, "__index__") or seed.__index__() < 0:
            raise ValueError(f"EngineBot: seed {seed!r}: expected a whole number from 0 up")
        self._player = player.__index__()
        self._spec = spec
        self._seed = seed.__index__()
        self._moves = 0

    def player_id(self) -> int:
        return self._player

    def restart_at(self, state: pyspiel.State) -> None:
        self._moves = 0

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass

    def step(self, state: WatergateState) -> int:
        to_move = state.current_player()
        if to_move != self._player:
            if to_move == pyspiel.PlayerId.TERMINAL:
                now = "the game is over"
            elif to_move == pyspiel.PlayerId.CHANCE:
                now = "chance is to move"
            else:
                now = f"{_PLAYERS.get(to_move, f'player {to_move}')} is to move"
            raise ValueError(f"EngineBot plays {_PLAYERS[self._player]}, but {now}")
        self._moves += 1
        return state.match.agent_action(self._spec, ((self._seed << 20) + self._moves) & _U64)
