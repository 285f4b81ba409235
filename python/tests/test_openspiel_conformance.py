"""OpenSpiel's own conformance checks on python_watergate, and the
consistency checks of OpenSpiel's Python game tests."""

import pickle
import random

import numpy as np
import pyspiel
import pytest


def test_random_sim_test_with_serialization(game):
    """pyspiel's standard API test: 200 random games, each state cloned,
    serialized and deserialized along the way."""
    pyspiel.random_sim_test(game, num_sims=200, serialize=True, verbose=False)


def test_seeded_chance_passes_random_sim_test():
    game = pyspiel.load_game("python_watergate", {"chance": "seeded", "seeds": 50})
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def _random_games(game, n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        state = game.new_initial_state()
        states = []
        while not state.is_terminal():
            states.append(state.clone())
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        states.append(state)
        yield states


def test_legal_actions_chance_outcomes_and_returns(game):
    """Legal actions sorted, distinct and in range, with distinct strings;
    chance outcomes are the legal actions and sum to 1; returns are +1/-1
    at the end and 0 before, always summing to 0."""
    n_actions = game.num_distinct_actions()
    n_chance = game.max_chance_outcomes()
    for states in _random_games(game, 30, seed=1):
        for state in states:
            returns = state.returns()
            assert sum(returns) == 0
            if state.is_terminal():
                assert sorted(returns) == [-1.0, 1.0]
                assert state.legal_actions() == []
                continue
            assert returns == [0.0, 0.0]
            legal = state.legal_actions()
            assert legal, "a live state has an option"
            assert legal == sorted(set(legal))
            names = [state.action_to_string(state.current_player(), a) for a in legal]
            assert len(set(names)) == len(names), names
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                assert [a for a, _ in outcomes] == legal
                assert all(0 < p <= 1 for _, p in outcomes)
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                assert all(0 <= a < n_chance for a in legal)
            else:
                assert all(0 <= a < n_actions for a in legal)
                assert state.current_player() in (0, 1)
                for p in (0, 1):
                    if p != state.current_player():
                        assert state.legal_actions(p) == []


def test_information_states_match_where_the_player_cannot_tell(game):
    """A state resampled from a player's information state has the same
    information-state string and tensor for that player, and the same
    player to move; for the other player, whose hidden cards were dealt
    again, the strings differ as soon as their hand differs."""
    differed = 0
    for states in _random_games(game, 6, seed=2):
        for state in states[::7]:
            if state.is_chance_node() or state.is_terminal():
                continue
            for p in (0, 1):
                other = state.resample_from_infostate(
                    p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
                assert other.current_player() == state.current_player()
                if p == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
                q = 1 - p
                side = ("editor", "nixon")[q]
                mine, theirs = state.match.hidden(), other.match.hidden()
                if sorted(mine["hands"][side]) != sorted(theirs["hands"][side]):
                    differed += 1
                    assert other.observation_string(q) != state.observation_string(q)
                    assert other.observation_tensor(q) != state.observation_tensor(q)
    assert differed > 0, "some resample dealt the other player a different hand"


def test_tensors_have_the_game_size_and_are_finite(game):
    size = game.observation_tensor_size()
    assert game.information_state_tensor_size() == size
    for states in _random_games(game, 3, seed=3):
        for state in states[::5]:
            for p in (0, 1):
                t = np.array(state.observation_tensor(p))
                assert t.shape == (size,) and np.isfinite(t).all()
                # The observer reads the engine's bytes: the same numbers
                # as the engine's list of floats.
                assert t.tolist() == np.array(state.match.observation_tensor(p), np.float32).tolist()


def test_a_tensor_tells_apart_decisions_with_different_options(game):
    """A learner sees only the tensor: two decisions of the player to move
    with different legal actions must have different tensors. A card that
    must be played at once lies on the table both while its part is chosen
    and while its value's target is; the tensor once held only which cards
    lay there, and these two decisions shared one."""
    options = {}
    clashes = []
    for states in _random_games(game, 60, seed=5):
        for state in states:
            if state.is_terminal() or state.is_chance_node():
                continue
            p = state.current_player()
            key = (p, np.asarray(state.observation_tensor(p), np.float32).tobytes())
            legal = tuple(state.legal_actions())
            if options.setdefault(key, (legal, state.observation_string(p)))[0] != legal:
                clashes.append((options[key][1], state.observation_string(p)))
    assert not clashes, "one tensor, different options:\n" + "\n--\n".join(clashes[0])


def test_clone_serialize_and_pickle_round_trip(game):
    for states in _random_games(game, 2, seed=4):
        for state in states[::11]:
            for copy in (
                state.clone(),
                game.deserialize_state(state.serialize()),
                pickle.loads(pickle.dumps(state.match)),
            ):
                text = str(copy) if not hasattr(copy, "match") else str(copy)
                assert text == str(state)
                for p in (0, 1):
                    if hasattr(copy, "information_state_string"):
                        assert copy.information_state_string(p) == state.information_state_string(p)
                    else:
                        assert copy.information_state_string(p) == state.match.information_state_string(p)


def test_a_copy_keeps_its_own_record_when_the_two_go_different_ways(game):
    """A clone shares what was seen before it (the record is not copied)
    but not what comes after: each of two copies that take different
    actions has the information state of a game replayed along its own
    history, and a copy left behind keeps its own."""
    rng = random.Random(6)
    state = game.new_initial_state()
    forks = 0
    while not state.is_terminal():
        actions = (state.chance_outcomes() and [a for a, _ in state.chance_outcomes()]) \
            if state.is_chance_node() else state.legal_actions()
        if len(actions) >= 2 and forks < 4 and rng.random() < 0.1:
            other = state.clone()
            before = [other.information_state_string(p) for p in (0, 1)]
            state.apply_action(actions[0])
            assert [other.information_state_string(p) for p in (0, 1)] == before
            other.apply_action(actions[1])
            for copy in (state, other):
                again = game.new_initial_state()
                for a in copy.history():
                    again.apply_action(a)
                for p in (0, 1):
                    assert again.information_state_string(p) == copy.information_state_string(p)
            assert [other.information_state_string(p) for p in (0, 1)] != \
                [state.information_state_string(p) for p in (0, 1)]
            forks += 1
        else:
            state.apply_action(rng.choice(actions))
    assert forks == 4


def test_same_actions_same_game(game):
    """With explicit chance a game is a function of its actions."""
    for states in _random_games(game, 3, seed=5):
        final = states[-1]
        again = game.new_initial_state()
        for a in final.history():
            again.apply_action(a)
        assert str(again) == str(final)
        assert again.returns() == final.returns()
