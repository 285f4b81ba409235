"""What a Ray cluster costs and gives: games/s of a strong-play study on one
core without Ray, on one Ray worker and on two, and the overhead of one
shard (a Ray task: scheduling, shipping the options and the result, the
merge), from which the smallest shard that keeps the overhead under 5 %.

    python python/benches/cluster_speed.py                 # ismcts:300 both sides
    python python/benches/cluster_speed.py --games 200 --agent ismcts:100

The figures go to stdout as a table; BENCHMARKS.md records them with the
machine's load. Every Ray run is checked to equal the one-machine result
(the timing fields aside), so a figure never comes from a wrong study.
"""

import argparse
import os
import time

import ray

import watergate
import watergate.cluster

TIMINGS = ("seconds", "games_per_second", "threads", "cluster")


def _untimed(v):
    return {k: x for k, x in v.items() if k not in TIMINGS}


def _timed(f):
    start = time.perf_counter()
    value = f()
    return value, time.perf_counter() - start


def _on_ray(cpus, study, shard_games):
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    try:
        # A first small study starts the workers and loads the game in them:
        # what a long study pays once, not per shard.
        watergate.cluster.run({**study, "games": 2 * cpus}, shard_games=1, progress=False)
        return _timed(lambda: watergate.cluster.run(study, shard_games=shard_games,
                                                    progress=False))
    finally:
        ray.shutdown()


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--agent", default="ismcts:300", help="both sides' agent [ismcts:300]")
    p.add_argument("--games", type=int, default=120, help="games of the strong study [120]")
    p.add_argument("--cheap-games", type=int, default=2000,
                   help="random games of the overhead measure [2000]")
    a = p.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    print(f"load average before: {os.getloadavg()[0]:.2f}")

    # The overhead of a shard: cheap games, one worker, many shards.
    cheap = {"command": "simulate", "games": a.cheap_games, "seed": 3}
    want, alone = _timed(lambda: watergate.simulate(games=a.cheap_games, seed=3, threads=1))
    print(f"{a.cheap_games} random games, one core, no Ray: {alone:.3f} s")
    overheads = []
    for size in (1, 10, 100):
        got, secs = _on_ray(1, cheap, size)
        assert _untimed(got) == _untimed(want), "the cluster's result is the one-machine result"
        shards = got["cluster"]["shards"]
        per_shard = (secs - alone) / shards
        overheads.append(per_shard)
        print(f"  one Ray worker, {size:>3} games/shard ({shards:>4} shards): {secs:.3f} s, "
              f"overhead {1000 * per_shard:.2f} ms per shard")
    overhead = min(overheads[:2])

    # The strong study.
    strong = {"command": "simulate", "games": a.games, "seed": 5, "editor": a.agent,
              "nixon": a.agent}
    want, alone = _timed(lambda: watergate.simulate(games=a.games, seed=5, editor=a.agent,
                                                    nixon=a.agent, threads=1))
    per_game = alone / a.games
    size = max(1, -(-overhead // (0.05 * per_game)))
    print(f"{a.games} games {a.agent} v {a.agent}, one core, no Ray: "
          f"{a.games / alone:.2f} games/s ({1000 * per_game:.1f} ms a game)")
    print(f"  shard overhead {1000 * overhead:.2f} ms = {100 * overhead / per_game:.1f} % of a "
          f"game: under 5 % from {int(size)} games per shard")
    for cpus, shard in ((1, 10), (2, 10), (2, 1)):
        got, secs = _on_ray(cpus, strong, shard)
        assert _untimed(got) == _untimed(want), "the cluster's result is the one-machine result"
        print(f"  {cpus} Ray worker(s), {shard:>2} games/shard: {a.games / secs:.2f} games/s "
              f"({a.games / secs / (a.games / alone):.2f}x one core)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
