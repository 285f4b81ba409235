"""OpenSpiel's own agents play whole games of python_watergate through
evaluate_bots: its ISMCTS, its MCTS and its uniform random bot."""

import numpy as np
import pytest
import pyspiel
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts
from open_spiel.python.bots import uniform_random


class _ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS bot, unchanged but for the two calls that
    evaluate_bots makes of every bot and that it does not define (its search
    starts afresh at every step, so there is nothing to restart or tell)."""

    def restart_at(self, state):
        self.reset()

    def inform_action(self, state, player_id, action):
        pass


def _ismcts(game, seed, simulations=20):
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return _ISMCTSBot(
        game=game, evaluator=evaluator, uct_c=2.0, max_simulations=simulations,
        random_state=np.random.RandomState(seed))


def _mcts(game, seed, simulations=20):
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    return mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                        random_state=np.random.RandomState(seed))


def _play(game, bots, seed):
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed))
    assert sorted(returns) == [-1.0, 1.0]
    return returns


def test_ismcts_against_random(game):
    for seed in range(2):
        _play(game, [_ismcts(game, seed), uniform_random.UniformRandomBot(1, np.random.RandomState(seed))], seed)
        _play(game, [uniform_random.UniformRandomBot(0, np.random.RandomState(seed)), _ismcts(game, seed)], seed)


def test_mcts_against_ismcts(game):
    _play(game, [_mcts(game, 3), _ismcts(game, 3)], 3)


def test_this_engines_agent_plays_through_the_same_state(game):
    """The engine's own agents choose from the player's view only."""
    from watergate.bots import EngineBot

    returns = _play(game, [EngineBot(game, 0, "heuristic", seed=1),
                           uniform_random.UniformRandomBot(1, np.random.RandomState(1))], 1)
    assert len(returns) == 2


@pytest.mark.parametrize("player, spec, message", [
    (5, "heuristic", "player 5: expected 0 \\(the Editor\\) or 1 \\(Nixon\\)"),
    (-1, "heuristic", "player -1"),
    (0, "bogus", "unknown agent `bogus`"),
    (1, "ismcts:lots", "ismcts:lots"),
])
def test_an_engine_bot_with_a_bad_player_or_spec_is_refused_when_made(game, player, spec,
                                                                      message):
    """Not at its first step, in the middle of a match."""
    from watergate.bots import EngineBot
    with pytest.raises(ValueError, match=message):
        EngineBot(game, player, spec)


def test_an_engine_bot_moves_only_for_its_own_player(game):
    """Nixon's bot, asked while the Editor is to move (or chance), refuses
    rather than choose the Editor's move."""
    from watergate.bots import EngineBot
    nixon = EngineBot(game, 1, "heuristic", seed=1)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="chance is to move"):
        nixon.step(state)
    while state.current_player() != 0:
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match=r"plays player 1 \(Nixon\), but player 0 \(the Editor\) is to move"):
        nixon.step(state)
    editor = EngineBot(game, 0, "heuristic", seed=1)
    assert editor.step(state) in state.legal_actions()
