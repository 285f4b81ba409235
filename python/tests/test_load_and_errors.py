"""Loading games as the CLI does, and bad input: every mistake raises a
Python exception with a clear message, none crashes the interpreter, and a
refused action leaves the state as it was."""

import json
import pathlib
import pickle
import random

import numpy as np
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


def test_a_choice_that_shows_what_the_rules_hide_is_a_warning_not_an_error(tmp_path):
    """As `watergate check` prints it: the game loads, and `warnings` says
    where an Editor's card would list face-down evidence by colour (R4.3)."""
    assert watergate.load().warnings == []
    for name, data in watergate.load().files():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bytes(data))
    script = tmp_path / "scripts" / "editor" / "the_rose_mary_stretch.rhai"
    script.write_text(script.read_text().replace('face: "up", ', "", 1))
    game = watergate.load(data=tmp_path)
    [(path, line, col, message)] = game.warnings
    assert path.endswith("the_rose_mary_stretch.rhai") and (line, col) == (2, 1)
    assert "(R4.3)" in message and "The Rose Mary Stretch" in message


def test_a_missing_folder_is_a_data_error(tmp_path):
    with pytest.raises(watergate.DataError, match="missing"):
        watergate.load(data=tmp_path / "missing")


def test_a_missing_variant_and_a_missing_against_file_raise_the_same_error(tmp_path):
    """A missing variant raised DataError and a missing `against` file a
    plain ValueError. Both are DataErrors now, and DataError is a ValueError
    (as json's decode error is), so `except ValueError` catches every bad
    input."""
    missing = str(tmp_path / "nope.ron")
    with pytest.raises(watergate.DataError) as variant:
        watergate.load(variant=missing)
    with pytest.raises(watergate.DataError, match="there is no file or folder") as against:
        watergate.simulate(games=2, against=missing)
    assert against.value.problems[0][0] == missing
    for err in (variant, against):
        assert isinstance(err.value, ValueError)
        assert err.value.problems


def test_wrong_parameter_types_raise_type_errors():
    with pytest.raises(TypeError):
        watergate.load(data=42)
    # OpenSpiel checks a parameter's type against the game's defaults itself.
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter seeds"):
        pyspiel.load_game("python_watergate", {"seeds": "many"})
    with pytest.raises((ValueError, pyspiel.SpielError), match="expected 'explicit' or 'seeded'"):
        pyspiel.load_game("python_watergate", {"chance": "sometimes"})
    with pytest.raises(watergate.DataError, match="does not exist"):
        pyspiel.load_game("python_watergate", {"data": "/nonexistent/folder"})


def test_an_openspiel_game_that_does_not_load_fails_a_test_and_crashes_nothing(tmp_path):
    """pytest shows the arguments of a failing test's frames. The game's
    constructor raised with `self` in its frame, a pyspiel.Game whose C++
    part was never built, and repr() of it crashed the interpreter (SIGSEGV)
    or raised std::bad_alloc. So each failing load runs as a test of a
    pytest of its own, with every frame's arguments and locals shown."""
    import subprocess
    import sys
    cases = {
        "data": ({"data": str(tmp_path / "missing")}, "missing: does not exist"),
        "variant": ({"variant": str(tmp_path / "missing.ron")}, "missing.ron: cannot read"),
        "seeds": ({"seeds": 0}, "python_watergate parameter 'seeds': expected 1 to"),
        "chance": ({"chance": "sometimes"}, "expected 'explicit' or 'seeded', got 'sometimes'"),
        "fingerprint": ({"fingerprint": "xyz"}, "fingerprint as 16 hex digits"),
        "changed": ({"fingerprint": "0" * 16}, "have changed since this game was made"),
        "max_game_length": ({"max_game_length": 0},
                            "parameter 'max_game_length': expected 1 to 2147483647"),
    }
    tests = tmp_path / "test_loads.py"
    tests.write_text("import pyspiel\nimport watergate.openspiel\n" + "".join(
        f"\ndef test_{name}():\n    pyspiel.load_game('python_watergate', {params!r})\n"
        for name, (params, _) in cases.items()))
    out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                          "--tb=long", "--showlocals", str(tests)],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 1, f"exit {out.returncode}\n{out.stdout[-3000:]}{out.stderr}"
    assert f"{len(cases)} failed" in out.stdout
    for name, (_, message) in cases.items():
        assert message in out.stdout, name
    assert "raised in repr()" not in out.stdout


def test_a_game_that_reaches_its_max_game_length_unfinished_stops_there_unchanged():
    """OpenSpiel is told that no game runs longer than max_game_length (2,000
    actions by default, observed for the shipped game, not proven). A game
    that would go past it is stopped, not run on unsaid: the action that
    would pass it is refused and the state stays as it was."""
    assert pyspiel.load_game("python_watergate").max_game_length() == 2000
    game = pyspiel.load_game("python_watergate", {"max_game_length": 30})
    assert game.max_game_length() == 30
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.move_number() < 30:
        assert not state.is_terminal()
        state.apply_action(rng.choice(state.legal_actions()))
    before, history = str(state), state.history()
    with pytest.raises(RuntimeError, match="reached its max_game_length of 30 actions"):
        state.apply_action(state.legal_actions()[0])
    assert (str(state), state.history(), state.move_number()) == (before, history, 30)


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


def test_games_are_equal_when_their_rules_are():
    """`Game` had no `__eq__`: two loads of the same files, or a game and
    its pickle, were unequal, and a set of games held one game twice."""
    shipped = watergate.load()
    house = watergate.load(variant=REPO / "scenarios" / "variants" / "cheap_liddy.ron")
    same = [watergate.load(), pickle.loads(pickle.dumps(shipped)),
            watergate.load_files(shipped.files())]
    assert all(g == shipped and hash(g) == hash(shipped) for g in same)
    assert house != shipped and not (house == shipped)
    assert len({shipped, house, *same}) == 2
    assert shipped != "shipped game" and shipped != shipped.fingerprint


def test_broken_files_in_memory_raise_every_problem():
    files = dict(watergate.load().files())
    name = next(k for k in files if k.endswith("howard_hunt.ron"))
    files[name] = bytes(files[name]).replace(b"value:", b"valeu:", 1)
    with pytest.raises(watergate.DataError) as err:
        watergate.load_files(list(files.items()))
    assert err.value.problems[0][0] == name


def _write_folder(root):
    """The shipped game's files as a data folder, as `watergate export` writes it."""
    for name, data in watergate.load().files():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(bytes(data))


def test_a_pickled_game_and_state_load_again_from_another_directory(tmp_path, monkeypatch):
    """A game loaded from a relative folder holds it as an absolute path, so
    its pickle (and a state's) loads the same files in a fresh interpreter
    started elsewhere; the reports still name the folder as it was given."""
    import subprocess
    import sys
    _write_folder(tmp_path / "work" / "mydata")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    game = watergate.load(data="mydata")
    assert game.data == tmp_path / "work" / "mydata"
    assert game.labels() == ("mydata/", "`mydata`")
    match = watergate.Match(game)
    match.apply_action(match.legal_actions()[0])
    osp = pyspiel.load_game("python_watergate", {"data": "mydata"})
    assert osp.get_parameters()["data"] == str(tmp_path / "work" / "mydata")
    state = osp.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    saved = tmp_path / "saved.pkl"
    saved.write_bytes(pickle.dumps((game, match, state)))
    script = (
        "import json, pickle, sys, watergate, watergate.openspiel\n"
        "game, match, state = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "print(json.dumps([game.fingerprint, game.labels(), str(match), str(state)]))\n")
    out = subprocess.run([sys.executable, "-c", script, str(saved)],
                         cwd=tmp_path / "elsewhere", capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [game.fingerprint, ["mydata/", "`mydata`"], str(match),
                                      str(state)]


def test_a_shipped_variant_loads_by_its_name_from_any_directory(tmp_path, monkeypatch):
    """A shipped variant's name (`scenarios/variants/old_board.ron`) with no
    such file on disk names the built-in copy, from any working directory,
    and so does the game's pickle: it stays that name, not an absolute path
    to nowhere."""
    monkeypatch.chdir(tmp_path)
    game = watergate.load(variant="scenarios/variants/old_board.ron")
    assert str(game.variant) == "scenarios/variants/old_board.ron"
    (tmp_path / "other").mkdir()
    monkeypatch.chdir(tmp_path / "other")
    assert pickle.loads(pickle.dumps(game)).fingerprint == game.fingerprint


def test_a_pickle_of_files_changed_since_is_refused_not_loaded_with_other_rules(tmp_path):
    _write_folder(tmp_path / "mydata")
    game = watergate.load(data=tmp_path / "mydata")
    match = watergate.Match(game)
    saved_game, saved_match = pickle.dumps(game), pickle.dumps(match)
    card = next((tmp_path / "mydata" / "cards" / "nixon").glob("*howard_hunt.ron"))
    card.write_text(card.read_text().replace("value: 2,", "value: 3,", 1))
    assert watergate.load(data=tmp_path / "mydata").fingerprint != game.fingerprint
    for saved in (saved_game, saved_match):
        with pytest.raises(watergate.DataError, match="have changed since"):
            pickle.loads(saved)


def test_a_pickled_openspiel_game_and_state_play_on_even_from_a_folder_with_a_comma(tmp_path):
    """pyspiel pickles a game as its string, which lost the Python half of a
    game written in Python (the copy could not start a game), and which
    cannot carry a path with a comma or a parenthesis."""
    import pyspiel
    import watergate.openspiel  # noqa: F401  (registers the game)
    folder = tmp_path / "my,data (1)"
    _write_folder(folder)
    game = pyspiel.load_game("python_watergate", {"data": str(folder), "chance": "seeded"})
    copy = pickle.loads(pickle.dumps(game))
    assert copy.get_parameters() == game.get_parameters()
    state = copy.new_initial_state()
    for _ in range(30):
        state.apply_action(state.legal_actions()[-1])
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history()
    assert str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    # A resample keeps its own deal through a pickle (its history is the
    # original's, so replaying the actions alone would give the original).
    resampled = state.resample_from_infostate(0, lambda: 0.25)
    assert resampled.match != state.match
    again = pickle.loads(pickle.dumps(resampled))
    assert again.match == resampled.match
    assert again.history() == resampled.history()


def test_an_openspiel_game_of_files_changed_since_is_refused_not_loaded_with_other_rules(tmp_path):
    """A pickled OpenSpiel game or state, and a serialized state, name the
    files' fingerprint in the game's parameters."""
    import pyspiel
    import watergate.openspiel  # noqa: F401  (registers the game)
    _write_folder(tmp_path / "mydata")
    game = pyspiel.load_game("python_watergate", {"data": str(tmp_path / "mydata")})
    assert game.get_parameters()["fingerprint"] == format(game.engine.fingerprint, "016x")
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    saved = [pickle.dumps(game), pickle.dumps(state)]
    serialized = pyspiel.serialize_game_and_state(game, state)
    card = next((tmp_path / "mydata" / "cards" / "nixon").glob("*howard_hunt.ron"))
    card.write_text(card.read_text().replace("value: 2,", "value: 3,", 1))
    for pickled in saved:
        with pytest.raises(watergate.DataError, match="have changed since"):
            pickle.loads(pickled)
    with pytest.raises(watergate.DataError, match="have changed since this game was made"):
        pyspiel.deserialize_game_and_state(serialized)
    # Without a fingerprint, the files as they are now.
    again = pyspiel.load_game("python_watergate", {"data": str(tmp_path / "mydata")})
    assert again.engine.fingerprint != game.engine.fingerprint


@pytest.mark.parametrize("call, message", [
    (lambda m: watergate.Match(watergate.load(), chance="seeded", seeds=2**70),
     "seeds: expected 1 to 1048576, got 1180591620717411303424"),
    (lambda m: m.agent_action("random", -1), "seed: expected a seed: a whole number from 0 to"),
    (lambda m: m.agent_action("random", 2**64), "seed: expected a seed"),
    (lambda m: m.resample(0, -1), "seed: expected a seed: a whole number from 0 to"),
    (lambda m: m.apply_action(2**63), "action 9223372036854775808 is not legal now"),
    (lambda m: m.apply_action(-2**70), "is not legal now"),
    (lambda m: m.apply_action(-5), "action -5 is not legal now"),
])
def test_an_integer_out_of_range_is_a_value_error_that_names_the_argument(call, message):
    """Where a 64-bit argument raised OverflowError, which `except
    ValueError` misses; a refused action leaves the state as it was."""
    match = watergate.Match(watergate.load())
    while match.is_chance_node():
        match.apply_action(match.legal_actions()[0])
    before = str(match)
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call(match)
    assert str(match) == before and not match.is_chance_node()


def _saved(match, change):
    """`match`'s saved bytes with `change` made to their JSON."""
    import json
    saved = json.loads(bytes(match.to_bytes()))
    change(saved)
    return json.dumps(saved).encode()


@pytest.mark.parametrize("change, message", [
    # The generator at 0 gave 0 forever, and the next uniform draw never
    # ended (apply_action hung, holding the GIL).
    (lambda s: s["setup"]["rng"].update(state=0), "rng: state 0: a PCG-64 MCG state must be odd"),
    # R8.4: over with no winner: every listed action failed.
    (lambda s: s["setup"].update(phase="Over"), "the game is over with no winner"),
    # An initial phase with nothing on its stack: nobody could act, and
    # an agent asked to move panicked on the empty list.
    (lambda s: s["setup"].update(stack=[]), "not a valid position: no player and no chance can act"),
])
def test_a_saved_state_that_could_not_go_on_is_refused(change, message):
    match = watergate.Match(watergate.load())
    with pytest.raises(ValueError, match=message):
        watergate.restore_match(_saved(match, change))


def test_a_seeded_root_lists_at_most_a_million_seeds():
    """Its actions are listed whole: 2**32-1 seeds took 34 GB and aborted."""
    game = watergate.load()
    assert watergate.MAX_SEEDS == 2**20
    root = watergate.Match(game, chance="seeded", seeds=watergate.MAX_SEEDS)
    assert len(root.legal_actions()) == watergate.MAX_SEEDS
    with pytest.raises(ValueError, match="seeds: expected 1 to 1048576, got 4294967295"):
        watergate.Match(game, chance="seeded", seeds=2**32 - 1)
    saved = _saved(watergate.Match(game, chance="seeded", seeds=5), lambda s: s.update(seeds=2**32 - 1))
    with pytest.raises(ValueError, match="seeds 4294967295: expected 1 to 1048576"):
        watergate.restore_match(saved)


@pytest.mark.parametrize("kwargs, message", [
    ({"data": ""}, "data: an empty path; give a folder holding `cards/` and `scripts/`, "
                   "or leave data out (None) for the shipped game"),
    ({"variant": ""}, "variant: an empty path; give a house-rule variant file (.ron), "
                      "or leave variant out (None) for none"),
])
def test_an_empty_path_is_named_as_such(kwargs, message):
    """`data=""` (a setting left blank) said `: not a directory: ...`, a
    path of nothing; `variant=""` said `: cannot read: No such file`."""
    for call in (watergate.load, lambda **kw: watergate.simulate(games=1, **kw)):
        with pytest.raises(watergate.DataError) as err:
            call(**kwargs)
        assert str(err.value) == message
        name, rest = message.split(": ", 1)
        assert err.value.problems == [(name, 0, 0, rest)]


def test_every_data_error_lists_its_problems(tmp_path):
    """A problem of the game as a whole (files changed since a pickle, or
    since an OpenSpiel game was made) raised a DataError without
    `problems`, which the class promises: `e.problems` raised AttributeError."""
    _write_folder(tmp_path / "mydata")
    game = watergate.load(data=tmp_path / "mydata")
    osp = pyspiel.load_game("python_watergate", {"data": str(tmp_path / "mydata")})
    saved, params = pickle.dumps(game), osp.get_parameters()
    card = next((tmp_path / "mydata" / "cards" / "nixon").glob("*howard_hunt.ron"))
    card.write_text(card.read_text().replace("value: 2,", "value: 3,", 1))
    # The files loaded again: this process keeps the game of the last load.
    assert watergate.load(data=tmp_path / "mydata").fingerprint != game.fingerprint
    for call in (lambda: pickle.loads(saved),
                 lambda: pyspiel.load_game("python_watergate", params)):
        with pytest.raises(watergate.DataError, match="have changed since") as err:
            call()
        assert err.value.problems == [("", 0, 0, str(err.value))]


@pytest.mark.parametrize("fingerprint", [
    "not a fingerprint", "0123456789abcde", "0123456789abcdef0", "0x23456789abcdef",
    " 123456789abcdef", "0123456789abcdeg",
])
def test_a_malformed_fingerprint_is_called_malformed_not_a_change_of_files(fingerprint):
    """It was compared with the files' as it was, and anything but theirs
    said the files "have changed since this game was made"."""
    with pytest.raises(ValueError) as err:
        pyspiel.load_game("python_watergate", {"fingerprint": fingerprint})
    assert str(err.value) == (
        "python_watergate parameter 'fingerprint': expected the files' fingerprint as 16 hex "
        "digits (watergate.Game.fingerprint written format(fingerprint, '016x'), e.g. "
        f"'0123456789abcdef'), or empty to load the files as they are now; got {fingerprint!r}")


def test_a_well_formed_fingerprint_is_checked_against_the_files():
    shipped = format(watergate.load().fingerprint, "016x")
    for same in (shipped, shipped.upper()):
        game = pyspiel.load_game("python_watergate", {"fingerprint": same})
        assert game.get_parameters()["fingerprint"] == shipped
    other = format(int(shipped, 16) ^ 1, "016x")
    with pytest.raises(watergate.DataError, match=f"fingerprint {other} then, {shipped} now"):
        pyspiel.load_game("python_watergate", {"fingerprint": other})


def _resample(game, value):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state.resample_from_infostate(0, lambda: value)


@pytest.mark.parametrize("value, error, shown", [
    # Each was a seed out of range named as the seed, NaN's "cannot convert
    # float NaN to integer", or, from 1 to 4, no error at all.
    (-1, ValueError, "-1"),
    (-0.25, ValueError, "-0.25"),
    (float("nan"), ValueError, "nan"),
    (1.0, ValueError, "1.0"),
    (1.5, ValueError, "1.5"),
    (3, ValueError, "3"),          # an option's index, not a probability
    pytest.param(10**400, ValueError, str(10**400), id="10**400"),
    (float("inf"), ValueError, "inf"),
    # A string was read as the number it spells, or raised float()'s own
    # error; None and a list were replaced by Python's random, silently.
    ("0.5", TypeError, "'0.5' (str)"),
    ("abc", TypeError, "'abc' (str)"),
    (None, TypeError, "None (NoneType)"),
    ([0.5], TypeError, "[0.5] (list)"),
    pytest.param(np.array([0.1, 0.2]), TypeError, "array([0.1, 0.2]) (ndarray)",
                 id="array"),
    (True, TypeError, "True (bool)"),
])
def test_a_sampler_s_value_outside_0_to_1_is_refused_by_name(game, value, error, shown):
    """A sampler gives a probability in [0, 1), as OpenSpiel's
    `UniformProbabilitySampler(0.0, 1.0)`; anything else is refused with
    what it returned and what was expected."""
    expected = ("expected a number in [0, 1) (from 0, below 1)" if error is ValueError
                else "expected a number in [0, 1), as pyspiel.UniformProbabilitySampler")
    with pytest.raises(error) as err:
        _resample(game, value)
    message = str(err.value)
    assert message.startswith(f"resample_from_infostate: the probability sampler returned {shown}")
    assert expected in message


def test_a_sampler_s_number_in_0_to_1_deals_of_any_numeric_type(game):
    import fractions
    for value in (0, 0.0, 0.999999, np.float32(0.5), np.float64(0.25), np.array(0.5),
                  fractions.Fraction(1, 3)):
        assert _resample(game, value).match.observation_string(0)
    assert _resample(game, np.float64(0.25)).match == _resample(game, 0.25).match
    # As before: a sampler that cannot be called without arguments gives
    # way to Python's random.
    state = _resample(game, 0.5)
    assert state.resample_from_infostate(0, object()).match.observation_string(0)


def test_a_max_game_length_past_openspiel_s_int_names_the_bound():
    """OpenSpiel keeps the bound in a C++ int: 2**31 raised "Unable to cast
    Python instance of type <class 'int'> to C++ type '?'"."""
    import watergate.openspiel as wo
    for load in (wo.WatergateGame, wo.load_game):
        with pytest.raises(ValueError, match=r"'max_game_length': expected 1 to 2147483647 "
                                             r"\(2\*\*31 - 1, OpenSpiel's int\) actions, "
                                             r"got 2147483648"):
            load({"max_game_length": 2**31})
    game = pyspiel.load_game("python_watergate", {"max_game_length": 2**31 - 1})
    assert game.max_game_length() == 2**31 - 1


def test_load_game_takes_a_path_and_a_numpy_integer_which_pyspiel_refuses():
    """pyspiel converts the parameters itself and takes str, int and bool:
    a Path raised "'PosixPath' object is not iterable". The module's
    load_game converts them first."""
    import watergate.openspiel as wo
    variant = REPO / "scenarios/variants/cheap_liddy.ron"
    params = {"variant": variant, "chance": "seeded", "seeds": np.int64(5)}
    with pytest.raises((TypeError, RuntimeError)):
        pyspiel.load_game("python_watergate", params)
    game = wo.load_game(params)
    assert game.get_parameters()["variant"] == str(variant)
    assert game.get_parameters()["seeds"] == 5
    assert game.engine.fingerprint == watergate.load(variant=variant).fingerprint
    with pytest.raises(ValueError, match="'seeds': expected 1 to 1048576, got 2147483648"):
        wo.load_game({"seeds": 2**31})


def test_a_data_error_made_by_hand_has_problems_as_the_class_promises():
    """`problems` is a list of every DataError (the stub declares it): one
    made by hand has none, where reading it raised AttributeError."""
    error = watergate.DataError("x")
    assert error.problems == [] and watergate.DataError.problems == []
    error.problems.append(("a", 1, 2, "b"))
    assert watergate.DataError("y").problems == [], "no list shared between errors"
    error.problems = [("p", 1, 2, "m")]
    assert error.problems == [("p", 1, 2, "m")]
    with pytest.raises(watergate.DataError) as err:
        watergate.load(data=REPO / "missing")
    assert err.value.problems and err.value.problems[0][0].endswith("missing")


def test_a_match_busy_in_another_thread_says_so():
    """`agent_action` thinks with the GIL released; `apply_action` on the
    same Match from another thread meanwhile raised PyO3's bare
    "RuntimeError: Already borrowed". It is refused, the match unchanged."""
    import threading
    import time
    match = watergate.Match(watergate.load())
    while match.is_chance_node():
        match.apply_action(match.legal_actions()[0])
    before = str(match)
    chosen = []
    thinker = threading.Thread(target=lambda: chosen.append(match.agent_action("ismcts:1500ms", 1)))
    thinker.start()
    time.sleep(0.3)
    try:
        with pytest.raises(RuntimeError, match="this match is busy in another thread"):
            match.apply_action(match.legal_actions()[0])
    finally:
        thinker.join()
    assert str(match) == before
    match.apply_action(chosen[0])
