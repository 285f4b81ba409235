"""A two-process Ray cluster on this machine: a head (`ray start --head`)
and a second node (`ray start --address`), each with its own ports; a
simulation run through it equals the one-machine result exactly."""

import json
import os
import pathlib
import socket
import subprocess
import shutil
import sys
import tempfile

import pytest

import watergate

HERE = pathlib.Path(__file__).resolve().parent


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def two_nodes():
    # Ray's sockets live under its temp dir, whose path must stay short
    # (a Unix socket's path has at most 107 bytes): not pytest's tmp_path.
    tmp_path = tempfile.mkdtemp(prefix="wgray", dir="/tmp")
    ray = str(pathlib.Path(sys.executable).with_name("ray"))
    port = _free_port()
    # Token authentication (on by default in recent Ray) would need the
    # token handed to every node; on loopback, for a test, it is off.
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0", "RAY_AUTH_MODE": "disabled"}
    common = ["--num-cpus=1", "--disable-usage-stats"]
    subprocess.run([ray, "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1",
                    "--include-dashboard=false", f"--temp-dir={tmp_path}", *common],
                   check=True, env=env, capture_output=True)
    try:
        subprocess.run([ray, "start", f"--address=127.0.0.1:{port}", "--node-ip-address=127.0.0.1",
                        f"--node-manager-port={_free_port()}", f"--object-manager-port={_free_port()}",
                        *common], check=True, env=env, capture_output=True)
        yield f"127.0.0.1:{port}", env
    finally:
        subprocess.run([ray, "stop", "--force"], env=env, capture_output=True)
        shutil.rmtree(tmp_path, ignore_errors=True)


def test_a_simulation_on_two_ray_nodes_equals_the_one_machine_run(two_nodes):
    driver = (
        "import json, sys, watergate.cluster\n"
        "r = watergate.cluster.run({'command': 'simulate', 'games': 90, 'seed': 6,"
        " 'editor': 'heuristic'}, address=sys.argv[1], shard_games=15, progress=False)\n"
        "print(json.dumps(r))\n"
    )
    address, env = two_nodes
    out = subprocess.run([sys.executable, "-c", driver, address], check=True, env=env,
                         capture_output=True, text=True, timeout=300).stdout
    got = json.loads(out.strip().splitlines()[-1])
    assert got["cluster"]["cpus"] == 2, "both nodes took part"
    want = watergate.simulate(games=90, seed=6, editor="heuristic")
    timings = ("seconds", "games_per_second", "threads", "cluster")
    assert {k: v for k, v in got.items() if k not in timings} == \
        {k: v for k, v in want.items() if k not in timings}


def test_a_sweep_and_a_ladder_on_two_ray_nodes_equal_the_clis(two_nodes, cli):
    """`python -m watergate.cluster sweep|ladder --address` on the two nodes
    prints what `watergate sweep|ladder --json` prints (timings aside)."""
    address, env = two_nodes
    timings = ("seconds", "threads", "cluster")

    def on_cluster(*args):
        out = subprocess.run([sys.executable, "-m", "watergate.cluster", *args, "--address", address,
                              "--shard-games", "5", "-q"], check=True, env=env, cwd=HERE.parents[1],
                             capture_output=True, text=True, timeout=300).stdout
        got = json.loads(out.strip().splitlines()[-1])
        assert got["cluster"]["cpus"] == 2, "both nodes took part"
        return {k: v for k, v in got.items() if k not in timings}

    param = "game.hand_size_with_initiative=4,5"
    assert on_cluster("sweep", "--param", param, "--games", "12", "--seed", "8") == \
        cli("sweep", "--param", param, "--games", "12", "--seed", "8")
    want = cli("ladder", "--agents", "random,heuristic", "--games", "10", "--seed", "3")
    assert on_cluster("ladder", "--agents", "random,heuristic", "--games", "10", "--seed", "3") == \
        {k: v for k, v in want.items() if k not in timings}
