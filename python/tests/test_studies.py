"""The studies from Python give the CLI's numbers: the same JSON as
`watergate simulate|merge|sweep|ladder --json` for the same options and seed
(timings aside), with the GIL released and Ctrl-C returning what was played."""

import json
import pathlib
import signal
import threading
import _thread

import pytest

import watergate

REPO = pathlib.Path(__file__).resolve().parents[2]
TIMINGS = ("seconds", "games_per_second", "threads")


def _untimed(v):
    return {k: x for k, x in v.items() if k not in TIMINGS}


def test_simulate_matches_the_cli(cli):
    want = cli("simulate", "--games", "300", "--seed", "5", "--editor", "heuristic")
    got = watergate.simulate(games=300, seed=5, editor="heuristic")
    assert _untimed(got) == _untimed(want)


def test_simulate_against_a_variant_matches_the_cli(cli):
    variant = "scenarios/variants/cheap_liddy.ron"
    want = cli("simulate", "--games", "200", "--variant", variant, "--against", "base")
    got = watergate.simulate(games=200, variant=REPO / variant, against="base")
    assert _untimed(got)["difference_in_editor_win_rate"] == _untimed(want)["difference_in_editor_win_rate"]
    assert got["card_differences"] == want["card_differences"]


def test_shards_merge_to_the_whole_run(cli):
    shards = [watergate.simulate(games=301, seed=2, shard=f"{i}/3") for i in (1, 2, 3)]
    merged = watergate.merge(shards)
    whole = cli("simulate", "--games", "301", "--seed", "2")
    assert _untimed(merged) == {k: v for k, v in _untimed(whole).items()}
    by_slice = [watergate.simulate(games=301, seed=2, slice=(a, b)) for a, b in ((0, 150), (150, 151))]
    assert watergate.merge(by_slice) == merged
    with pytest.raises(ValueError, match="already counted"):
        watergate.merge([shards[0], shards[0]])


def test_ladder_matches_the_cli(cli):
    want = cli("ladder", "--agents", "random,heuristic", "--games", "6", "--seed", "4")
    got = watergate.ladder(["random", "heuristic"], games=6, seed=4)
    assert _untimed(got) == _untimed(want)


def test_sweep_matches_the_cli(cli):
    param = "game.hand_size_with_initiative=4,5"
    want = cli("sweep", "--param", param, "--games", "20", "--seed", "3")
    assert watergate.sweep(param, games=20, seed=3) == want


def test_results_are_plain_data_a_dataframe_takes():
    r = watergate.simulate(games=50)
    assert isinstance(r["cards"], dict) and isinstance(r["rounds_histogram"], dict)
    json.dumps(r)


def test_the_gil_is_released_while_a_study_runs():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.005)

    t = threading.Thread(target=tick)
    t.start()
    watergate.simulate(games=3000, editor="heuristic", nixon="heuristic", threads=1)
    stop.set()
    t.join()
    assert len(ticks) > 5


def test_ctrl_c_returns_the_games_played_marked_partial():
    # Python's own Ctrl-C handler, whatever an earlier test left in its
    # place: in one clean-clone run, just after a Ray test had failed, the
    # interrupt was not seen and the 10,000,000 games of this test's first
    # form ran on until the run was stopped (a handler left by the Ray
    # driver that does not raise is the likely cause). 50,000 games take
    # about a minute, so a missed interrupt now fails the test instead of
    # hanging the suite.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        r = watergate.simulate(games=50_000, editor="heuristic", nixon="heuristic", threads=1)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert r["partial"] is True
    assert 0 < r["games_finished"] == r["games"] < 50_000


def test_bad_options_raise_clear_errors():
    with pytest.raises(ValueError, match="editor \"wizard\""):
        watergate.simulate(games=10, editor="wizard")
    with pytest.raises(ValueError, match="at least 1"):
        watergate.simulate(games=0)
    with pytest.raises(TypeError):
        watergate.simulate(games="many")
    with pytest.raises(TypeError):
        watergate.simulate(games=2.0)


def test_numpy_integers_are_whole_numbers():
    """Counts and seeds from a NumPy grid are taken as the ints they are."""
    import numpy as np
    got = watergate.simulate(games=np.int64(12), seed=np.uint32(3), threads=np.int8(1))
    want = watergate.simulate(games=12, seed=3, threads=1)
    strip = lambda r: {k: v for k, v in r.items() if k not in ("seconds", "games_per_second")}
    assert strip(got) == strip(want)
    with pytest.raises(ValueError, match="two agents"):
        watergate.ladder(["random"])
    with pytest.raises(ValueError, match="`random` is given twice"):
        watergate.ladder(["random", "heuristic", "random"])


@pytest.mark.parametrize("call, message", [
    (lambda: watergate.simulate(games=-5), "games: expected at least 1, got -5"),
    (lambda: watergate.simulate(games=2**64), "games: expected at most 18446744073709551615"),
    (lambda: watergate.simulate(games=5, slice=(-1, 2)), "slice's first_game: expected at least 0"),
    (lambda: watergate.Match(watergate.load(), "seeded", -1), "seeds: expected 1 to 1048576"),
    (lambda: watergate.simulate(games=3, seed=-1), "seed: expected a seed: a whole number"),
    (lambda: watergate.simulate(games=3, seed=2**64), "seed: expected a seed"),
    (lambda: watergate.simulate(games=3, threads=0), "threads: expected at least 1 thread"),
    (lambda: watergate.simulate(games=3, threads=-1), "threads: expected at least 1 thread"),
    (lambda: watergate.ladder(["random", "heuristic"], games=-1), "games: expected at least 1"),
    (lambda: watergate.sweep("card.gordon_liddy.value=1,2", games=-1), "games: expected at least 1"),
])
def test_numbers_out_of_range_raise_value_error_as_the_cli_refuses_them(call, message):
    """A negative count reached the engine as an unsigned number and raised
    OverflowError, which `except ValueError` misses; threads=0 ran, where the
    CLI refuses `--threads 0`."""
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()


def test_ladder_takes_its_agents_as_the_cli_writes_them():
    """`--agents random,heuristic`: one string split at its commas, where it
    was split into letters ("agent r: unknown agent")."""
    as_string = watergate.ladder("random,heuristic", games=4, seed=4)
    as_list = watergate.ladder(["random", "heuristic"], games=4, seed=4)
    for timed in (as_string, as_list):
        timed.pop("seconds")
    assert as_string == as_list
    assert as_list["agents"] == ["random", "heuristic"]


def test_ladder_drops_the_spaces_after_the_commas():
    """`"random, heuristic"` failed on the agent `" heuristic"`."""
    spaced = watergate.ladder("random, heuristic", games=2, seed=4)
    plain = watergate.ladder("random,heuristic", games=2, seed=4)
    for timed in (spaced, plain):
        timed.pop("seconds")
    assert spaced == plain


def test_against_the_game_itself_is_refused_as_the_cli_refuses_it():
    """`--against base` without a variant compares the game with itself:
    Python's simulate, the cluster's resolver and the CLI refuse it in the
    same words."""
    import os
    import subprocess
    exe = os.environ.get("WATERGATE_BIN") or str(REPO / "target" / "release" / "watergate")
    with pytest.raises(ValueError) as simulate_error:
        watergate.simulate(games=3, against="base")
    with pytest.raises(ValueError) as against_error:
        watergate._engine.against(watergate.load(), "base")
    assert str(simulate_error.value) == str(against_error.value)
    assert "the comparison would be with itself" in str(against_error.value)
    out = subprocess.run([exe, "simulate", "--games", "3", "--against", "base", "-q"], cwd=REPO,
                         capture_output=True, text=True)
    assert out.returncode != 0 and str(against_error.value) in out.stderr


def test_against_a_game_object_of_the_same_rules_is_refused():
    """A `Game` given to `against` was played beside itself, and the
    comparison said there was no difference, as there could not be."""
    game = watergate.load()
    for other in (game, watergate.load()):
        with pytest.raises(ValueError, match="are the same game"):
            watergate.simulate(games=3, game=game, against=other)
    variant = watergate.load(variant=REPO / "scenarios/variants/cheap_liddy.ron")
    assert "difference_in_editor_win_rate" in watergate.simulate(games=3, game=game, against=variant)


def test_a_shard_and_a_slice_together_are_refused_not_one_ignored():
    """`slice` was dropped without a word when `shard` was given too."""
    with pytest.raises(ValueError, match="give one or the other"):
        watergate.simulate(games=4, shard="1/2", slice=(3, 1))


def test_a_slice_of_no_games_says_so():
    """It said `slice 0..0: expected games within the run's 0..5`."""
    with pytest.raises(ValueError, match="slice's games: expected at least 1"):
        watergate.simulate(games=5, slice=(0, 0))
    with pytest.raises(ValueError, match="a slice of no games plays nothing"):
        watergate._engine.simulate_json(watergate.load(), 5, 1, "random", "random", None, None,
                                        None, None, (2, 0), 1, False)


def test_simulate_documents_every_parameter_it_takes():
    """`precision`, `threads` and `progress` were taken but not documented
    (nor, as such, `games`, `seed`, the agents or the game's files)."""
    import inspect
    doc = inspect.getdoc(watergate.simulate)
    names = inspect.signature(watergate.simulate).parameters
    assert [name for name in names if f"``{name}``" not in doc] == []
