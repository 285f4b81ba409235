"""OpenSpiel's own conformance checks on python_watergate, and the
consistency checks of OpenSpiel's Python game tests."""

import pathlib
import pickle
import random
import re

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


def test_two_moves_of_one_card_that_pick_different_tokens_have_different_tensors():
    """The Watergate complex moves a face-down evidence token 1 step, or a
    face-up one 2 steps: two decisions with different options (ev0, ev2 and
    ev1, ev3). The tensor held of a move only that it was one, and the two
    shared a tensor; it holds which tokens the move may pick and how far."""
    game = pyspiel.load_game("python_watergate", {"chance": "seeded", "seeds": 2})
    a, b = game.new_initial_state(), game.new_initial_state()
    for x in [1, 25, 83, 51, 80, 16, 80, 71, 35, 85]:
        a.apply_action(x)
    for x in [1, 17, 71, 25, 83, 51, 80, 35]:
        b.apply_action(x)
    assert a.current_player() == b.current_player() == 0
    assert [a.action_to_string(0, x) for x in a.legal_actions()] == ["ev0", "ev2"]
    assert [b.action_to_string(0, x) for x in b.legal_actions()] == ["ev1", "ev3"]
    assert a.observation_string(0).endswith("move a face-down evidence token 1 step")
    assert b.observation_string(0).endswith("move a face-up evidence token 2 steps")
    assert a.observation_tensor(0) != b.observation_tensor(0)
    assert a.information_state_tensor(0) != b.information_state_tensor(0)
    parts = _parts(game, a.observation_tensor(0))
    other = _parts(game, b.observation_tensor(0))
    assert parts["ask_face"] == [0, 0, 1] and other["ask_face"] == [0, 1, 0]
    assert parts["ask_steps"] == [np.float32(0.1), 0] and other["ask_steps"] == [np.float32(0.2), 0]


def _parts(game, tensor):
    """The tensor cut into its parts, by name (`Game.tensor_layout`)."""
    parts, start = {}, 0
    for name, size in game.engine.tensor_layout:
        parts[name] = list(np.asarray(tensor[start:start + size], np.float32))
        start += size
    assert start == len(tensor)
    return parts


def test_the_readme_s_table_of_the_tensor_is_the_code_s_layout(game):
    """README.md's "The observation tensor" lists the parts in the order and
    with the lengths the engine writes them (it checks each part's length
    as it writes it), and their sum is the tensor's size."""
    readme = (pathlib.Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("#### The observation tensor\n", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([\d,]+) \|", section, re.M)
    layout = game.engine.tensor_layout
    assert [(name, int(n.replace(",", ""))) for name, n in rows] == layout
    size = sum(n for _, n in layout)
    assert size == game.observation_tensor_size() == game.information_state_tensor_size()
    assert f"{size:,} for the shipped game" in section
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    parts = _parts(game, state.observation_tensor(1))
    assert parts["viewer"] == [0, 1]
    assert parts["decision_kind"][0] == (1 if state.current_player() == 1 else 0)


@pytest.mark.parametrize("other, named", [
    ({"chance": "seeded", "seeds": 10}, "chance 'seeded' with 10 seeds"),
    ({"variant": "scenarios/variants/cheap_liddy.ron"}, "with the variant"),
])
def test_a_state_of_another_game_is_refused_by_deserialize_state(game, other, named):
    """OpenSpiel's deserialize_state makes a state of the game it is called
    on and sets the serialized attributes on it: a state of another game
    (another chance, other files) played that game under this one's name.
    It is refused, naming both games; its own game takes it."""
    theirs = pyspiel.load_game("python_watergate", other)
    state = theirs.new_initial_state()
    for _ in range(11):
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError, match="this state is of another game") as err:
        game.deserialize_state(state.serialize())
    assert named in str(err.value)
    assert "not of the shipped game (fingerprint" in str(err.value)
    assert "chance 'explicit'" in str(err.value)
    again = theirs.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)


@pytest.mark.parametrize("player, action, refused", [
    (5, 3, "player 5: the players are 0 .* and 1 .*, and -1 for chance"),
    (-7, 3, "player -7"),
    (0, 99999, "action 99999: the action ids are 0 to"),
    (0, -1, "action -1: the action ids are 0 to"),
    (-1, 99999, "action 99999: chance's outcomes are 0 to"),
])
def test_action_to_string_refuses_a_player_or_action_that_does_not_exist(game, player, action,
                                                                         refused):
    state = game.new_initial_state()
    with pytest.raises(ValueError, match=refused):
        state.action_to_string(player, action)
    # An id of the game's numbering, legal now or not, is named.
    assert state.action_to_string(0, 0) and state.action_to_string(-1, 0).startswith("deal")


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
