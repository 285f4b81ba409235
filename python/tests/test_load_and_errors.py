"""Loading games as the CLI does, and bad input: every mistake raises a
Python exception with a clear message, none crashes the interpreter, and a
refused action leaves the state as it was."""

import pathlib
import pickle

import pyspiel
import pytest

import watergate

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_the_shipped_game_loads():
    game = watergate.load()
    assert game.data is None and game.variant is None
    cards = game.cards()
    assert len(cards) == 40
    assert {c["side"] for c in cards} == {"editor", "nixon"}
    assert pickle.loads(pickle.dumps(game)).fingerprint == game.fingerprint


def test_a_variant_loads_and_changes_the_game():
    variant = REPO / "scenarios" / "variants" / "cheap_liddy.ron"
    base, house = watergate.load(), watergate.load(variant=str(variant))
    assert house.variant == variant
    assert house.fingerprint != base.fingerprint


def test_a_broken_variant_raises_every_problem_as_the_cli_prints_it():
    """The same lines as `watergate check --variant` (tests/broken_variants)."""
    variant = REPO / "tests" / "broken_variants" / "bad_value.ron"
    expected = (variant.with_suffix(".expected")).read_text().strip().splitlines()
    with pytest.raises(watergate.DataError) as err:
        watergate.load(variant=variant)
    shown = str(err.value).replace(str(variant), "tests/broken_variants/bad_value.ron")
    assert shown.splitlines() == expected
    assert [(p[1], p[2]) for p in err.value.problems] == [(3, 46), (3, 58)]


def test_a_broken_data_folder_raises_with_path_line_and_column(tmp_path):
    for name, data in watergate.load().files():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bytes(data))
    card = next((tmp_path / "cards" / "nixon").glob("*howard_hunt.ron"))
    text = card.read_text()
    card.write_text(text.replace("value:", "valeu:", 1))
    with pytest.raises(watergate.DataError) as err:
        watergate.load(data=tmp_path)
    (path, line, col, message) = err.value.problems[0]
    assert path.endswith("howard_hunt.ron") and line >= 1 and col >= 1
    assert f":{line}:{col}:" in str(err.value)


def test_a_missing_folder_is_a_data_error(tmp_path):
    with pytest.raises(watergate.DataError, match="missing"):
        watergate.load(data=tmp_path / "missing")


def test_wrong_parameter_types_raise_type_errors():
    with pytest.raises(TypeError):
        watergate.load(data=42)
    # OpenSpiel checks a parameter's type against the game's defaults itself.
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter seeds"):
        pyspiel.load_game("python_watergate", {"seeds": "many"})
    with pytest.raises((ValueError, pyspiel.SpielError), match="expected 'explicit' or 'seeded'"):
        pyspiel.load_game("python_watergate", {"chance": "sometimes"})
    with pytest.raises(watergate.DataError, match="not a directory"):
        pyspiel.load_game("python_watergate", {"data": "/nonexistent/folder"})


def test_an_unknown_action_is_refused_and_changes_nothing(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    before, history = str(state), state.history()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    for bad in (illegal, 10**6):
        with pytest.raises(Exception, match="not legal"):
            state.apply_action(bad)
        assert str(state) == before and state.history() == history
    # -1 is OpenSpiel's "invalid action", refused by OpenSpiel before the game sees it.
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(-1)
    assert str(state) == before and state.history() == history
    with pytest.raises(ValueError, match="not legal now"):
        state.match.apply_action(illegal)
    assert str(state) == before


def test_an_action_on_a_finished_game_is_refused(game):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[-1])
    before = str(state)
    with pytest.raises(ValueError, match="over"):
        state.match.apply_action(0)
    assert str(state) == before and state.is_terminal()


def test_a_bad_player_and_bad_bytes_raise(game):
    state = game.new_initial_state()
    with pytest.raises(IndexError):
        state.match.observation_string(2)
    with pytest.raises(ValueError, match="not a saved Watergate state"):
        watergate.restore_match(b"not a state")


def test_a_game_travels_as_its_files():
    """A worker with no shared disk loads the same game from its files."""
    house = watergate.load(variant=REPO / "scenarios" / "variants" / "cheap_liddy.ron")
    copy = watergate.load_files(house.files())
    assert copy.fingerprint == house.fingerprint
    assert copy.data is None and "in memory" in repr(copy)
    assert pickle.loads(pickle.dumps(copy)).fingerprint == house.fingerprint
    match = watergate.Match(copy)
    match.apply_action(match.legal_actions()[0])
    assert pickle.loads(pickle.dumps(match)) == match


def test_broken_files_in_memory_raise_every_problem():
    files = dict(watergate.load().files())
    name = next(k for k in files if k.endswith("howard_hunt.ron"))
    files[name] = bytes(files[name]).replace(b"value:", b"valeu:", 1)
    with pytest.raises(watergate.DataError) as err:
        watergate.load_files(list(files.items()))
    assert err.value.problems[0][0] == name
