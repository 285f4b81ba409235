"""This engine's agents as OpenSpiel bots, for matches against OpenSpiel's."""

import pyspiel


class EngineBot(pyspiel.Bot):
    """Plays ``spec`` (``random``, ``heuristic``, ``ismcts:1000``, as on the
    command line) for ``player`` in a ``python_watergate`` game. It sees only
    that player's view; its search runs in Rust with the GIL released."""

    def __init__(self, game, player, spec, seed=0):
        pyspiel.Bot.__init__(self)
        self._player = player
        self._spec = spec
        self._seed = seed
        self._moves = 0

    def restart_at(self, state):
        self._moves = 0

    def inform_action(self, state, player_id, action):
        pass

    def step(self, state):
        self._moves += 1
        return state.match.agent_action(self._spec, (self._seed << 20) + self._moves)
