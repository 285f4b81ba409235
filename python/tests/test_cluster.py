"""Studies on a real local Ray instance give, game for game, the
one-machine CLI's result (timings aside), whatever the shard size:
simulations, sweeps (a simulation per point) and ladders (a simulation per
pairing). A worker killed mid-study is retried; Ctrl-C cancels the tasks
and returns what was finished, marked partial."""

import shutil
import tempfile

import pytest

import ray

import watergate
import watergate.cluster

TIMINGS = ("seconds", "games_per_second", "threads", "cluster")


def _untimed(v):
    return {k: x for k, x in v.items() if k not in TIMINGS}


@pytest.fixture(scope="module")
def local_ray():
    # Ray's session folder (logs, sockets) goes in a folder of this test's,
    # removed after: by default every run left one in /tmp/ray. Its path
    # stays short, as a Unix socket's path has at most 107 bytes: not
    # pytest's tmp_path.
    temp = tempfile.mkdtemp(prefix="wgray", dir="/tmp")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, _temp_dir=temp)
    yield
    ray.shutdown()
    shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.parametrize("shard_games", [7, 50, 1000])
def test_a_simulation_on_ray_equals_the_one_machine_run(local_ray, shard_games):
    study = {"command": "simulate", "games": 120, "seed": 9, "editor": "heuristic"}
    got = watergate.cluster.run(study, shard_games=shard_games, progress=False)
    want = watergate.simulate(games=120, seed=9, editor="heuristic")
    assert _untimed(got) == _untimed(want)
    assert got["cluster"]["shards"] == -(-120 // shard_games)


def test_a_compared_variant_on_ray_equals_the_one_machine_run(local_ray, tmp_path):
    variant = "scenarios/variants/cheap_liddy.ron"
    import pathlib
    repo = pathlib.Path(__file__).resolve().parents[2]
    study = {"command": "simulate", "games": 60, "variant": str(repo / variant), "against": "base"}
    got = watergate.cluster.run(study, shard_games=20, progress=False)
    want = watergate.simulate(games=60, variant=repo / variant, against="base")
    assert _untimed(got) == _untimed(want)


@pytest.mark.parametrize("shard_games", [7, 1000])
def test_a_sweep_on_ray_equals_the_clis(local_ray, cli, shard_games):
    param = "game.hand_size_with_initiative=4,5"
    want = cli("sweep", "--param", param, "--games", "20", "--seed", "3")
    study = {"command": "sweep", "params": [param], "games": 20, "seed": 3}
    got = watergate.cluster.run(study, shard_games=shard_games, progress=False)
    assert _untimed(got) == want
    assert got["cluster"]["shards"] == 2 * -(-20 // shard_games), "a simulation per point"


def test_a_two_parameter_sweep_of_a_variant_on_ray_equals_the_clis(local_ray, cli):
    """The variant's file is read here and shipped with each point's game."""
    variant, params = "scenarios/variants/cheap_liddy.ron", [
        "card.gordon_liddy.value=1,2", "game.hand_size_with_initiative=4,5"]
    want = cli("sweep", "--param", params[0], "--param", params[1], "--variant", variant,
               "--games", "8", "--seed", "2")
    study = {"command": "sweep", "params": params, "variant": variant, "games": 8, "seed": 2}
    assert _untimed(watergate.cluster.run(study, shard_games=3, progress=False)) == want


def test_a_ladder_on_ray_equals_the_clis(local_ray, cli):
    want = cli("ladder", "--agents", "random,heuristic,ismcts:20", "--games", "6", "--seed", "4")
    study = {"command": "ladder", "agents": ["random", "heuristic", "ismcts:20"], "games": 6,
             "seed": 4}
    got = watergate.cluster.run(study, shard_games=4, progress=False)
    assert _untimed(got) == _untimed(want)
    assert got["cluster"]["shards"] == 9 * 2, "a simulation per pairing, two shards each"


def test_ctrl_c_cancels_the_shards_left_and_returns_the_finished_ones_marked_partial(local_ray):
    import _thread
    import signal
    import threading
    import time

    # A SIGINT handler that does not raise, as another library may leave
    # one: the study's own handler takes Ctrl-C all the same, and puts this
    # one back when it returns. (With the KeyboardInterrupt of whatever
    # handler was there, a clean-clone run once lost the interrupt and
    # played all 200,000 games.)
    def left_behind(_signum, _frame):
        pass

    original = signal.signal(signal.SIGINT, left_behind)
    timer = threading.Timer(2.0, _thread.interrupt_main)
    timer.start()
    study = {"command": "simulate", "games": 200_000, "editor": "heuristic", "nixon": "heuristic"}
    try:
        got = watergate.cluster.run(study, shard_games=200, progress=False)
    finally:
        timer.cancel()
        after = signal.signal(signal.SIGINT, original)
    assert after is left_behind
    assert got["partial"] is True
    assert 0 < got["games_finished"] == got["games"] < got["games_asked"] == 200_000
    assert got["games_finished"] == sum(s["games"] for s in got["slices"])
    assert got["cluster"]["shards_finished"] < got["cluster"]["shards"] == 1000
    # The cancelled tasks give their cores back.
    deadline = time.time() + 30
    while ray.available_resources().get("CPU", 0) < 2 and time.time() < deadline:
        time.sleep(0.2)
    assert ray.available_resources().get("CPU", 0) == 2
    # What was finished is exact: its first slice is the one-machine run's.
    first = got["slices"][0]
    alone = watergate.simulate(games=200_000, editor="heuristic", nixon="heuristic",
                               slice=(first["first_game"], first["games"]))
    assert alone["slices"] == [first]


def test_a_result_of_the_cli_is_a_study_that_gives_it_again(local_ray, cli, tmp_path):
    """A study file may be what `simulate|sweep|ladder --json` printed: the
    cluster runs the same study and gets the same result."""
    import json
    variant = "scenarios/variants/cheap_liddy.ron"
    results = {
        "simulate": cli("simulate", "--games", "40", "--seed", "12", "--editor", "heuristic"),
        "sweep": cli("sweep", "--param", "card.gordon_liddy.value=1,3", "--variant", variant,
                     "--games", "10", "--seed", "5"),
        "ladder": cli("ladder", "--agents", "random,heuristic", "--games", "4", "--seed", "6"),
    }
    for command, want in results.items():
        path = tmp_path / f"{command}.json"
        path.write_text(json.dumps(want))
        got = watergate.cluster.run(str(path), shard_games=7, progress=False)
        assert _untimed(got) == _untimed(want), command
    # A result of another game than the one loaded is refused, not rerun.
    other = cli("simulate", "--games", "5", "--variant", variant)
    with pytest.raises(ValueError, match="the result was of"):
        watergate.cluster.run(other, progress=False)
    assert _untimed(watergate.cluster.run({**other, "variant": variant}, progress=False)) == \
        _untimed(other)


def test_a_study_file_and_bad_studies(local_ray, tmp_path):
    path = tmp_path / "study.json"
    path.write_text('{"command": "simulate", "games": 30, "seed": 2}')
    got = watergate.cluster.run(str(path), shard_games=10, progress=False)
    assert _untimed(got) == _untimed(watergate.simulate(games=30, seed=2))
    with pytest.raises(ValueError, match="command"):
        watergate.cluster.run({"games": 3})
    with pytest.raises(ValueError, match="expected one of simulate, sweep, ladder"):
        watergate.cluster.run({"command": "soak"})
    with pytest.raises(ValueError, match="unknown option.*edtor"):
        watergate.cluster.run({"command": "simulate", "edtor": "heuristic"})
    with pytest.raises(ValueError, match="give params"):
        watergate.cluster.run({"command": "sweep"})


@pytest.mark.parametrize("options, refused", [
    ({"games": 0}, "simulate study: games: expected a whole number from 1"),
    ({"games": -3}, "games: expected a whole number from 1"),
    ({"games": 2.7}, "games: expected a whole number from 1 .*got 2.7"),
    ({"games": True}, "games: expected a whole number"),
    ({"seed": -1}, "seed: expected a whole number from 0"),
    ({"editor": "bogus"}, "agent \"bogus\""),
    ({"nixon": 3}, "agent 3: expected a name"),
    ({"shard_games": 0}, "shard_games: expected a whole number from 1 to"),
    ({"shard_games": 2**64}, "shard_games: expected a whole number from 1 to"),
])
def test_a_bad_option_is_refused_before_anything_runs(options, refused):
    """Each refused as watergate.simulate refuses it, before Ray starts:
    a worker's traceback inside Ray's error (seed -1, a bad agent), a
    KeyboardInterrupt (no games), or a quiet 2 games of 2.7 or 500 a shard
    of 0, as before."""
    was = ray.is_initialized()
    with pytest.raises(ValueError, match=refused):
        watergate.cluster.run({"command": "simulate", **options}, progress=False)
    assert ray.is_initialized() == was, "Ray started for a study refused"
    with pytest.raises(ValueError, match="shard_games: expected a whole number from 1 to"):
        watergate.cluster.run({"command": "simulate", "games": 3}, shard_games=0, progress=False)


@pytest.mark.parametrize("study, refused", [
    ({"command": "sweep", "params": ["nope=1,2"], "games": 4}, "nope"),
    ({"command": "simulate", "against": "nope.ron"}, "nope.ron"),
])
def test_a_bad_sweep_parameter_or_against_file_is_refused_before_ray_starts(monkeypatch, study,
                                                                            refused):
    """A sweep's points and a compared game are worked out before Ray
    starts: a bad parameter or a missing file was refused only after a
    local Ray instance had started (about 5 s)."""
    def init(*args, **kwargs):
        raise AssertionError("Ray started for a study refused")

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", init)
    with pytest.raises(ValueError, match=refused):
        watergate.cluster.run(study, progress=False)


def test_a_study_s_counts_are_checked_by_the_package_s_one_check(monkeypatch):
    """By `watergate._whole`, which checks `watergate.simulate`'s counts (the
    module had a copy of it), with the study's errors: each a ValueError
    saying what was expected."""
    import numpy as np
    checked = []
    whole = watergate._whole

    def spy(name, value, least, expected):
        checked.append(name)
        return whole(name, value, least, expected)

    monkeypatch.setattr(watergate, "_whole", spy)
    most = 2**64 - 1
    for options, shard_games, seen, message in [
        ({"games": 0}, None, ["games"],
         f"simulate study: games: expected a whole number from 1 to {most}, got 0"),
        ({"games": 2**64}, None, ["games"],
         f"simulate study: games: expected a whole number from 1 to {most}, got {2**64}"),
        ({"games": 2.7}, None, ["games"],
         f"simulate study: games: expected a whole number from 1 to {most}, got 2.7"),
        ({"seed": True}, None, ["games", "seed"],
         f"simulate study: seed: expected a whole number from 0 to {most}, got True"),
        ({"seed": np.int64(-1)}, None, ["games", "seed"],
         f"simulate study: seed: expected a whole number from 0 to {most}, got np.int64(-1)"),
        ({"shard_games": "3"}, None, ["games", "seed", "shard_games"],
         f"shard_games: expected a whole number from 1 to {most}"),
        ({}, np.int64(0), ["games", "seed", "shard_games"],
         f"shard_games: expected a whole number from 1 to {most}"),
    ]:
        checked.clear()
        with pytest.raises(ValueError) as err:
            watergate.cluster.run({"command": "simulate", **options}, shard_games=shard_games,
                                  progress=False)
        assert str(err.value) == message
        assert checked == seen


def test_a_ladder_study_takes_its_agents_as_one_string_as_watergate_ladder_does(local_ray):
    got = watergate.cluster.run({"command": "ladder", "agents": "random, heuristic", "games": 2},
                                progress=False)
    assert _untimed(got) == _untimed(watergate.ladder("random,heuristic", games=2))
    with pytest.raises(ValueError, match="agent \"ismcts:x\""):
        watergate.cluster.run({"command": "ladder", "agents": "random,ismcts:x"}, progress=False)


def test_a_comparison_s_result_is_a_study_that_gives_it_again(local_ray):
    """A comparison's result holds the compared game's statistics under
    `against`: that is not the option, which the result's run names."""
    import pathlib
    variant = str(pathlib.Path(__file__).resolve().parents[2] / "scenarios/variants/cheap_liddy.ron")
    want = watergate.simulate(games=30, seed=4, variant=variant, against="base")
    assert isinstance(want["against"], dict)
    got = watergate.cluster.run({**want, "variant": variant}, shard_games=10, progress=False)
    assert _untimed(got) == _untimed(want)


def _worker_pids():
    """Ray's worker processes running a shard (their title is the task's)."""
    import os
    pids = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if b"ray::_play_shard" in f.read():
                        pids.append(int(pid))
            except OSError:
                pass
    return pids


def test_a_worker_killed_mid_study_is_retried_and_nothing_is_lost(local_ray):
    """SIGKILL a worker while it plays a shard: Ray retries the task, and
    the merged result still equals the one-machine run, every game once."""
    import os
    import signal
    import threading
    import time

    killed = []

    def kill_one():
        deadline = time.time() + 60
        while time.time() < deadline and not killed:
            pids = _worker_pids()
            if pids:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])
            time.sleep(0.05)

    study = {"command": "simulate", "games": 80, "seed": 4,
             "editor": "ismcts:200", "nixon": "heuristic"}
    killer = threading.Thread(target=kill_one)
    killer.start()
    got = watergate.cluster.run(study, shard_games=10, progress=False)
    killer.join()
    assert killed, "a worker was killed during the study"
    want = watergate.simulate(games=80, seed=4, editor="ismcts:200", nixon="heuristic")
    assert _untimed(got) == _untimed(want)


def test_the_core_package_works_without_ray():
    """Ray is an optional extra: with no `ray` to import, the package loads
    games and runs studies; only `watergate.cluster` asks for Ray."""
    import subprocess
    import sys
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "import watergate, watergate.bots\n"
        "assert watergate.simulate(games=5)['games'] == 5\n"
        "try:\n"
        "    import watergate.cluster\n"
        "except ImportError:\n"
        "    print('cluster needs ray')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == "cluster needs ray"
