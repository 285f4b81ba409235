"""Simulations on a real local Ray instance give, game for game, the
one-machine result (timings aside), whatever the shard size."""

import pytest

import ray

import watergate
import watergate.cluster

TIMINGS = ("seconds", "games_per_second", "threads", "cluster")


def _untimed(v):
    return {k: x for k, x in v.items() if k not in TIMINGS}


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


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


def test_a_study_file_and_bad_studies(local_ray, tmp_path):
    path = tmp_path / "study.json"
    path.write_text('{"command": "simulate", "games": 30, "seed": 2}')
    got = watergate.cluster.run(str(path), shard_games=10, progress=False)
    assert _untimed(got) == _untimed(watergate.simulate(games=30, seed=2))
    with pytest.raises(ValueError, match="command"):
        watergate.cluster.run({"games": 3})


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
