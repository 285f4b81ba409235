"""This engine's ``ismcts:N`` against OpenSpiel's Python ISMCTS bot at the
same number of iterations, through the ``python_watergate`` game.

    python -m watergate.strength --iterations 100 --games 400 --out ismcts-100.jsonl
    python -m watergate.strength --report ismcts-100.jsonl ismcts-1000.jsonl

Game ``g`` deals with chance seed ``g``; this engine plays the Editor in the
even games and Nixon in the odd ones, so each side is played half the time
by each bot over the same deals. Every finished game is one line of the
output file, written as it ends: a run stopped (Ctrl-C) and started again
with the same ``--out`` goes on where it stopped. Each bot's thinking time
is measured on its own decisions (those with more than one option), so the
report gives the iterations per second of each on one core.

OpenSpiel's bot is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with its
``RandomRolloutEvaluator`` (one random playout per iteration) and
``uct_c=2``; ours is the engine's default ISMCTS (its own playout policy).
Both search from the player's information state only.
"""

# The annotations stay text (PEP 563): the package supports Python 3.9.
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import watergate.openspiel  # noqa: F401  (registers python_watergate)
from watergate.bots import EngineBot
from watergate.openspiel import WatergateGame


class OpenSpielISMCTS(ismcts.ISMCTSBot):
    """OpenSpiel's bot unchanged; it defines neither ``restart_at`` nor
    ``inform_action``, and its search starts afresh at every step."""

    def restart_at(self, state: pyspiel.State) -> None:
        self.reset()

    def inform_action(self, state: pyspiel.State, player_id: int, action: int) -> None:
        pass


def play(game: WatergateGame, g: int, iterations: int) -> dict[str, Any]:
    """One game: returns its record."""
    ours_seat = g % 2
    rng = np.random.RandomState(g)
    theirs = OpenSpielISMCTS(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(g)),
        uct_c=2.0,
        max_simulations=iterations,
        random_state=np.random.RandomState(g + 1_000_003),
    )
    ours = EngineBot(game, ours_seat, f"ismcts:{iterations}", seed=g)
    bots: dict[int, EngineBot | OpenSpielISMCTS] = {ours_seat: ours, 1 - ours_seat: theirs}
    thinking = {"ours": [0.0, 0], "openspiel": [0.0, 0]}
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        player = state.current_player()
        who = "ours" if player == ours_seat else "openspiel"
        searched = len(state.legal_actions()) > 1
        start = time.perf_counter()
        action = bots[player].step(state)
        spent = time.perf_counter() - start
        if searched:
            thinking[who][0] += spent
            thinking[who][1] += 1
        state.apply_action(action)
    returns = state.returns()
    return {
        "game": g,
        "iterations": iterations,
        "ours_side": ("editor", "nixon")[ours_seat],
        "ours_won": returns[ours_seat] > 0,
        "editor_won": returns[0] > 0,
        "ours_seconds": thinking["ours"][0],
        "ours_searches": thinking["ours"][1],
        "openspiel_seconds": thinking["openspiel"][0],
        "openspiel_searches": thinking["openspiel"][1],
    }


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 %)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def load(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The games of a results file, each game once (the first record of it:
    two runs given overlapping ranges may both have played a game)."""
    games: dict[int, dict[str, Any]] = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                games.setdefault(row["game"], row)
    return [games[g] for g in sorted(games)]


def report(paths: Iterable[str | os.PathLike[str]]) -> str:
    """A Markdown table of the runs' results."""
    lines = [
        "| iterations | games | this engine wins | 95 % interval | as Editor | as Nixon "
        "| this engine it/s | OpenSpiel it/s |",
        "|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for path in paths:
        rows = load(path)
        if not rows:
            continue
        n = len(rows)
        wins = sum(r["ours_won"] for r in rows)
        lo, hi = wilson(wins, n)
        side = {s: [r for r in rows if r["ours_side"] == s] for s in ("editor", "nixon")}
        as_side = {
            s: f"{sum(r['ours_won'] for r in v)}/{len(v)}" for s, v in side.items()
        }
        it = rows[0]["iterations"]

        def rate(who: str) -> str:
            seconds = sum(r[f"{who}_seconds"] for r in rows)
            searches = sum(r[f"{who}_searches"] for r in rows)
            return f"{it * searches / seconds:,.0f}" if seconds else "-"

        lines.append(
            f"| {it} | {n} | {wins / n:.1%} | {lo:.1%} – {hi:.1%} | {as_side['editor']} "
            f"| {as_side['nixon']} | {rate('ours')} | {rate('openspiel')} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m watergate.strength", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=100, help="iterations per decision, both bots")
    parser.add_argument("--games", type=int, default=400, help="games in all (each side half)")
    parser.add_argument("--first", type=int, default=0, help="the first game's number")
    parser.add_argument("--out", help="the results file (JSON lines), appended to and resumed")
    parser.add_argument("--report", nargs="+", metavar="FILE", help="print the table of these results files")
    args = parser.parse_args(argv)
    # Refused here in a line, as argparse refuses: a missing file or an
    # iteration count of 0 came out as a traceback (FileNotFoundError, or
    # EngineBot's ValueError) once the work had started.
    if args.report:
        try:
            table = report(args.report)
        except OSError as e:
            parser.error(f"--report: {e.filename or ''}: {e.strerror}")
        except (ValueError, KeyError, TypeError) as e:
            parser.error(f"--report: not a results file of this command: {e!r}")
        print(table)
        return 0
    if not args.out:
        parser.error("--out FILE is needed to play (or --report FILE...)")
    for name, least in (("iterations", 1), ("games", 1), ("first", 0)):
        if getattr(args, name) < least:
            parser.error(f"--{name}: expected a whole number from {least}, "
                         f"got {getattr(args, name)}")
    try:
        return _play_all(args)
    except OSError as e:  # the results file cannot be read or written
        parser.error(f"--out: {e.filename or args.out}: {e.strerror}")


def _play_all(args: argparse.Namespace) -> int:
    """Plays the games of ``args`` not in ``args.out`` yet, then prints the table."""

    def done() -> set[int]:
        return {r["game"] for r in load(args.out)} if os.path.exists(args.out) else set()

    game = pyspiel.load_game("python_watergate")
    mine = range(args.first, args.first + args.games)
    at_start = done()
    todo = [g for g in mine if g not in at_start]
    start, played = time.time(), 0
    try:
        with open(args.out, "a") as out:
            for g in todo:
                # Another run sharing the work (an overlapping --first
                # range) may have played this game since this one started.
                seen = done()
                if g in seen:
                    continue
                row = play(game, g, args.iterations)
                out.write(json.dumps(row) + "\n")
                out.flush()
                played += 1
                rate = played / (time.time() - start)
                # Progress counts this run's range only: the file may hold
                # games of other ranges.
                finished = sum(1 for x in seen | {g} if x in mine)
                print(f"\r{finished}/{args.games} games, {rate * 3600:.0f}/h", end="", file=sys.stderr)
    except KeyboardInterrupt:
        print("\nstopped: the games played so far are kept", file=sys.stderr)
    print(file=sys.stderr)
    print(report([args.out]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
