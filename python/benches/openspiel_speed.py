"""Speed of the engine through Python: the cost of one step of a random
game (``legal_actions`` or ``chance_outcomes``, then ``apply_action``)
through pyspiel's ``python_watergate`` and through the engine's ``Match``
directly, and random games per second through each.

    python python/benches/openspiel_speed.py [--games 300]

Figures go to BENCHMARKS.md; compare them with the CLI's random games/s
(`watergate simulate --games 20000 --agents random,random --threads 1`)
measured in the same minutes.
"""

import argparse
import random
import time

import pyspiel

import watergate
import watergate.openspiel  # noqa: F401


def run(games, new_state, seed):
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    for _ in range(games):
        state = new_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r, acc = rng.random(), 0.0
                for action, p in outcomes:
                    acc += p
                    if r < acc:
                        break
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
    return time.perf_counter() - start, steps


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    game = pyspiel.load_game("python_watergate")
    engine = watergate.load()
    for name, new_state in [
        ("pyspiel python_watergate", game.new_initial_state),
        ("watergate.Match (no pyspiel)", lambda: watergate.Match(engine)),
    ]:
        run(10, new_state, 0)  # warm up
        seconds, steps = run(args.games, new_state, 1)
        print(f"{name}: {args.games / seconds:,.0f} random games/s, "
              f"{steps / args.games:.0f} steps a game, "
              f"{seconds / steps * 1e6:.1f} µs a step (options + apply_action)")


if __name__ == "__main__":
    main()
