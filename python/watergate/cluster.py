"""Studies on a Ray cluster: simulations cut into shards by game index,
each shard a Ray task that plays through the Rust engine in
the worker's own process, merged exactly as ``watergate merge`` merges
shards; sweeps and ladders likewise, and put back together as
``watergate sweep`` and ``watergate ladder`` print them.

    import watergate.cluster
    result = watergate.cluster.run({"command": "simulate", "games": 20000,
                                    "editor": "ismcts:300", "nixon": "ismcts:300"})
    result = watergate.cluster.run("study.json", address="auto")

or from a shell::

    python -m watergate.cluster simulate --games 20000 --editor ismcts:300 --address auto
    python -m watergate.cluster sweep --param card.gordon_liddy.value=1,2,3 --games 2000
    python -m watergate.cluster ladder --agents heuristic,ismcts:100 --games 200

A study is a dict (or a JSON file holding one) with ``command``
(``simulate``, ``sweep`` or ``ladder``) and that command's options, named
as :func:`watergate.simulate`, :func:`watergate.sweep` and
:func:`watergate.ladder` name them (the CLI's options), plus ``data``,
``variant`` and ``shard_games``. A sweep is cut into one simulation per
point and a ladder into one per pairing; each simulation is cut into
shards by game index.

A study file may also be a result the CLI printed with ``--json``
(``simulate``, ``sweep``, ``ladder``, or this module's own): the study that
made it runs again and gives it again, timings aside. A result names its
game only by label and fingerprint: put ``data`` and ``variant`` beside it in
the file when it is not of the shipped game (a game other than the
result's is refused).

Without an address a local Ray instance is started (and stopped after);
``address="auto"`` or ``"ray://host:10001"`` joins an existing cluster.

The game's files go to the object store once (``ray.put``): workers need no
shared disk. A worker killed mid-shard has its task retried by Ray; the
merge checks that every game index is counted exactly once and refuses
otherwise. The merged result equals the one-machine CLI result for the same
options and seed, game for game, whatever the number of workers or shards
(the timing fields aside). Ctrl-C cancels the tasks left and returns the
shards finished so far, marked ``partial``.
"""

# The annotations stay text (PEP 563): the package supports Python 3.9.
from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from types import FrameType
from typing import Any, SupportsIndex

import ray

import watergate

#: Games per shard unless the study says otherwise (``shard_games``).
DEFAULT_SHARD_GAMES = {"simulate": 500, "sweep": 100, "ladder": 20}

#: The options each study takes, with the CLI's defaults.
STUDY_OPTIONS: dict[str, dict[str, Any]] = {
    "simulate": {"games": 1000, "seed": 1, "editor": "random", "nixon": "random",
                 "against": None},
    "sweep": {"params": None, "games": 200, "seed": 1, "editor": "heuristic",
              "nixon": "heuristic"},
    "ladder": {"agents": ("random", "heuristic", "ismcts:30", "ismcts:100"), "games": 20,
               "seed": 1},
}

_LOADED: dict[str, watergate.Game] = {}


def _game_from(files: list[ray.ObjectRef]) -> watergate.Game:
    """The game of ``files`` (a list holding the object-store reference of a
    game's files and labels), loaded once per worker process. The reference
    comes wrapped so that Ray hands it over as it is: a worker fetches and
    loads a game once, not once per shard."""
    ref = files[0]
    game = _LOADED.get(ref.hex())
    if game is None:
        files, labels = ray.get(ref)
        game = _LOADED[ref.hex()] = watergate.load_files(files, *labels)
    return game


@ray.remote(max_retries=5)
def _play_shard(options: dict[str, Any], game_files: list[ray.ObjectRef],
                against_files: list[ray.ObjectRef] | None, first: int, count: int) -> str:
    """One shard: games ``first .. first + count`` of a simulation, played
    in this worker's own process through the engine. Sweeps and ladders are
    cut into simulations (a point, a pairing) before they get here."""
    game = _game_from(game_files)
    against = _game_from(against_files) if against_files is not None else None
    # The result stays the engine's JSON text (what merge reads), not a dict:
    # no parsing and pickling of nested dicts on either side of the wire.
    o = options
    return watergate._engine.simulate_json(game, o["games"], o["seed"], o["editor"], o["nixon"],
                                           None, against, None, None, (first, count), 1, False)


def _read_study(study: str | os.PathLike[str] | Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The study's command and its options, the CLI's defaults filled in;
    an unknown command or option is refused before anything runs."""
    if isinstance(study, (str, os.PathLike)):
        with open(study) as f:
            study = json.load(f)
    if isinstance(study, dict) and "command" not in study:
        study = _study_of_result(study)
    if not isinstance(study, dict) or "command" not in study:
        raise ValueError("a study is a dict with a 'command' and its options, or a result "
                         "printed by simulate, sweep or ladder --json")
    study = dict(study)
    command = study.pop("command")
    if command not in STUDY_OPTIONS:
        raise ValueError(f"study command {command!r}: expected one of {', '.join(STUDY_OPTIONS)}")
    known = {**STUDY_OPTIONS[command], "data": None, "variant": None, "shard_games": None,
             "_result_game": None}
    unknown = sorted(set(study) - set(known))
    if unknown:
        raise ValueError(f"{command} study: unknown option(s) {', '.join(unknown)}; "
                         f"expected {', '.join(sorted(known))}")
    return command, _checked(command, {**known, **{k: v for k, v in study.items()
                                                   if v is not None}})


#: What a shard's size is refused with (a count past 64 bits too, which
#: no study plays).
_SHARD_GAMES = f"expected a whole number from 1 to {2**64 - 1}"


def _count(name: str, value: SupportsIndex, least: int, expected: str) -> int:
    """``value`` checked by the package's ``_whole`` (an ``int`` or anything
    with ``__index__``, a NumPy integer, from ``least`` to 2**64 - 1), but
    refused as a study refuses it: a ``ValueError`` saying what was
    ``expected``, also for a ``2.7`` of games or a bool (``_whole``'s
    ``TypeError``), raised before anything runs."""
    try:
        return watergate._whole(name, value, least, expected)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: {expected}") from None


def _checked(command: str, o: dict[str, Any]) -> dict[str, Any]:
    """The study's options checked before anything runs, each refused as
    :func:`watergate.simulate`, :func:`watergate.sweep` and
    :func:`watergate.ladder` refuse it: a bad number or agent found by a
    worker came back as its traceback inside Ray's error, after the
    cluster had started."""
    for name, value, least in (("games", o["games"], 1), ("seed", o["seed"], 0)):
        try:
            o[name] = _count(name, value, least,
                             f"expected a whole number from {least} to {2**64 - 1}")
        except ValueError as e:
            raise ValueError(f"{command} study: {e}, got {value!r}") from None
    if o["shard_games"] is not None:
        o["shard_games"] = _count("shard_games", o["shard_games"], 1, _SHARD_GAMES)
    if command == "ladder":
        # As `watergate.ladder` and `--agents` take it: one string, comma-separated.
        o["agents"] = watergate._agent_list(o["agents"])
        if len(o["agents"]) < 2:
            raise ValueError("ladder study: give at least two agents")
        specs = o["agents"]
    else:
        specs = [o["editor"], o["nixon"]]
    for spec in specs:
        if not isinstance(spec, str):
            raise ValueError(f"{command} study: agent {spec!r}: expected a name such as "
                             "'random', 'heuristic' or 'ismcts:100'")
        watergate._engine.agent_spec(spec)
    return o


def _study_of_result(v: dict[str, Any]) -> dict[str, Any]:
    """The study that made ``v``, a result the CLI (or this module) printed
    with ``--json``: run again, it gives that result (timings aside). The
    result names its game only by label and fingerprint, so ``data`` and
    ``variant`` (and ``against`` of a comparison with another folder or
    variant) are given beside it, in the same file; `_check_result_game`
    refuses a game other than the result's."""
    given: dict[str, Any] = {k: v[k] for k in ("data", "variant", "against", "shard_games") if k in v}
    # In a comparison's result, `against` is the compared game's statistics;
    # only a name given beside the result is the option.
    if isinstance(given.get("against"), dict):
        del given["against"]
    if isinstance(v.get("run"), dict) and "raw" in v:
        run = v["run"]
        study = {"command": "simulate", "games": run["games"], "seed": run["seed"],
                 "editor": run["editor"], "nixon": run["nixon"]}
        if run.get("against") and "against" not in given:
            if run["against"] == "shipped game":
                study["against"] = "shipped"
            elif run["against"] == run["label"].split(" + ")[0]:
                study["against"] = "base"
            else:
                raise ValueError(f"the result compares with {run['against']}: give 'against' "
                                 "(a folder or a variant file) beside it")
        check = ("fingerprint", run["data_fingerprint"], run["label"])
    elif isinstance(v.get("sweep"), dict) and "key" in v["sweep"]:
        key = v["sweep"]["key"]
        study = {"command": "sweep", "games": key["games"], "seed": key["seed"],
                 "editor": key["editor"], "nixon": key["nixon"],
                 "params": [f"{p['name']}={','.join(p['values'])}" for p in key["params"]]}
        if key.get("variant") and "variant" not in given:
            given["variant"] = key["variant"]
        check = ("label", key.get("game"), key.get("game"))
    elif "agents" in v and "games_per_pairing" in v and "pairings" in v:
        study = {"command": "ladder", "agents": v["agents"], "games": v["games_per_pairing"],
                 "seed": v["seed"]}
        check = ("label", v.get("game"), v.get("game"))
    else:
        return v
    return {**study, **given, "_result_game": check}


def _check_result_game(check: tuple[str, Any, Any], game: watergate.Game) -> None:
    """Refuses to run a result's study again on a game other than its own."""
    how, want, label = check
    have = format(game.fingerprint, "016x") if how == "fingerprint" else game.labels()[1]
    if want is not None and have != want:
        raise ValueError(f"the result was of {label}, not of the game loaded here: give its "
                         "'data' and 'variant' beside it")


def _against_game(spec: str | os.PathLike[str] | watergate.Game | None,
                  game: watergate.Game) -> watergate.Game | None:
    """The compared game of ``against``, resolved as ``--against`` resolves
    it (by the engine: ``shipped``, ``base``, a folder or a variant file)."""
    if spec is None or isinstance(spec, watergate.Game):
        return spec
    return watergate._engine.against(game, str(spec))


def _shipped(game: watergate.Game) -> list[ray.ObjectRef]:
    """The game's files in the object store, wrapped for `_game_from`."""
    return [ray.put((game.files(), game.labels()))]


class _Cell:
    """One simulation of a study (the whole of a simulate, a sweep's point,
    a ladder's pairing): its game in the object store and its options."""

    def __init__(self, files: list[ray.ObjectRef], against: list[ray.ObjectRef] | None,
                 options: dict[str, Any]) -> None:
        self.files, self.against, self.options = files, against, options
        self.results: list[str] = []


def _plan(command: str, o: dict[str, Any], game: watergate.Game) -> Any:
    """What of the study needs the game but not Ray, worked out before Ray
    starts, so that a bad study is refused before anything runs: a
    simulation's compared game (``against``, a missing file refused), a
    sweep's points (a bad parameter refused). ``None`` for a ladder."""
    if command == "simulate":
        return _against_game(o["against"], game)
    if command == "sweep":
        params = o["params"]
        if not params:
            raise ValueError("sweep study: give params, one or two 'NAME=V1,V2,...'")
        params = [params] if isinstance(params, str) else list(params)
        return watergate._engine.sweep_plan(game, params, o["games"], o["seed"], o["editor"],
                                            o["nixon"])
    return None


def _cells(command: str, o: dict[str, Any], game: watergate.Game, plan: Any) -> tuple[
        list[_Cell], Callable[[list[_Cell], bool], dict[str, Any]]]:
    """The study as simulations (``plan`` from `_plan`), and how to put
    their results together."""
    sim = {"games": o["games"], "seed": o["seed"]}
    if command == "simulate":
        against = plan
        cell = _Cell(_shipped(game), _shipped(against) if against is not None else None,
                     {**sim, "editor": o["editor"], "nixon": o["nixon"]})
        return [cell], lambda cells, partial: _merged_simulation(cells[0].results, partial)
    if command == "sweep":
        key, points = plan
        cells = [_Cell([ray.put((files, (f"sweep point {label}", label)))], None,
                       {**sim, "editor": o["editor"], "nixon": o["nixon"]})
                 for label, files in points]
        return cells, lambda cells, partial: json.loads(watergate._engine.sweep_assemble(
            key, [c.results for c in cells], partial))
    agents = o["agents"]
    files = _shipped(game)
    cells = [_Cell(files, None, {**sim, "editor": e, "nixon": n}) for e in agents for n in agents]
    return cells, lambda cells, partial: json.loads(watergate._engine.ladder_assemble(
        game, agents, sim["games"], sim["seed"], [c.results for c in cells], partial))


def _merged_simulation(results: list[str], partial: bool) -> dict[str, Any]:
    if not results:
        raise KeyboardInterrupt("stopped before any shard had finished")
    merged: dict[str, Any] = json.loads(watergate._engine.merge_json(results))
    if partial:
        finished = sum(s["games"] for s in merged["slices"])
        merged.update(partial=True, games_finished=finished, games_asked=merged["run"]["games"])
    return merged


def run(study: str | os.PathLike[str] | Mapping[str, Any], address: str | None = None,
        shard_games: SupportsIndex | None = None, progress: bool = True) -> dict[str, Any]:
    """Runs ``study`` on Ray and returns the merged result: the dict that
    :func:`watergate.simulate`, :func:`watergate.sweep` or
    :func:`watergate.ladder` returns for the same options on one machine,
    with a ``cluster`` entry (shards, workers, seconds, games/s)."""
    command, o = _read_study(study)
    game = watergate.load(o["data"], o["variant"])
    if o["_result_game"] is not None:
        _check_result_game(o["_result_game"], game)
    if shard_games is not None:
        shard_games = _count("shard_games", shard_games, 1, _SHARD_GAMES)
    size = shard_games or o["shard_games"] or DEFAULT_SHARD_GAMES[command]
    plan = _plan(command, o, game)
    started_here = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started_here = address is None
    try:
        cells, finish = _cells(command, o, game, plan)
        queue = collections.deque(
            (cell, first, min(size, cell.options["games"] - first))
            for cell in cells
            for first in range(0, cell.options["games"], size))
        shards, total = len(queue), sum(count for _, _, count in queue)
        # A few shards a CPU in flight, the rest queued here: each wait then
        # looks at a short list, where waiting on every shard of a long study
        # cost O(shards) a wait, O(shards²) in all (31 ms a shard at 2,000).
        window = max(8, 4 * int(ray.cluster_resources().get("CPU", 1)))
        pending: dict[ray.ObjectRef, tuple[_Cell, int]] = {}
        finished = 0
        done, start = 0, time.time()
        stop = threading.Event()
        previous = _catch_ctrl_c(stop)
        try:
            while (queue or pending) and not stop.is_set():
                while queue and len(pending) < window:
                    cell, first, count = queue.popleft()
                    ref = _play_shard.remote(cell.options, cell.files, cell.against, first, count)
                    pending[ref] = (cell, count)
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                if ready:
                    # Every shard finished by now, fetched in one call.
                    ready = ray.wait(list(pending), num_returns=len(pending), timeout=0)[0]
                    for ref, result in zip(ready, ray.get(ready)):
                        cell, count = pending.pop(ref)
                        cell.results.append(result)
                        done += count
                        finished += 1
                if progress:
                    _show(done, total, start)
        except KeyboardInterrupt:
            stop.set()
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
        interrupted = stop.is_set() and bool(queue or pending)
        if interrupted:
            for ref in pending:
                ray.cancel(ref, force=True)
        if progress:
            print(file=sys.stderr)
        merged = finish(cells, interrupted)
        seconds = time.time() - start
        merged["cluster"] = {
            "shards": shards,
            "shards_finished": finished,
            "shard_games": size,
            "seconds": seconds,
            "games_per_second": done / max(seconds, 1e-9),
            "cpus": ray.cluster_resources().get("CPU", 0),
        }
        return merged
    finally:
        if started_here:
            ray.shutdown()


def _catch_ctrl_c(stop: threading.Event) -> Callable[[int, FrameType | None], Any] | int | None:
    """While a study's shards run, Ctrl-C sets ``stop``, which the loop
    looks at between its waits (every half second at most), instead of
    raising ``KeyboardInterrupt`` wherever the driver happens to be. Raised
    inside Ray's own calls, the interrupt was at times lost, and the study
    ran on to its end (a clean-clone test run saw it). Returns the handler
    to put back, or ``None`` off the main thread, where no handler can be
    set (the ``KeyboardInterrupt`` of the main thread's own handler is
    then caught as before)."""
    try:
        return signal.signal(signal.SIGINT, lambda _signum, _frame: stop.set())
    except ValueError:
        return None


def _show(done: int, total: int, start: float) -> None:
    rate = done / max(time.time() - start, 1e-9)
    try:
        busy = ray.cluster_resources().get("CPU", 0) - ray.available_resources().get("CPU", 0)
    except Exception:  # the figures are for the eye only
        busy = 0
    print(f"\r{done}/{total} games, {rate:.1f}/s, {busy:.0f} workers busy", end="", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m watergate.cluster", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["simulate", "sweep", "ladder", "study"],
                        help="a study, or `study FILE` for a study file (or a --json result to run again)")
    parser.add_argument("file", nargs="?", help="with `study`: the study file (JSON)")
    parser.add_argument("--address", help="a Ray cluster: auto, or ray://host:port (default: start one here)")
    parser.add_argument("--shard-games", type=int, help="games per shard")
    parser.add_argument("--games", "-n", type=int, help="games (per point of a sweep, per pairing of a ladder)")
    parser.add_argument("--seed", "-s", type=int)
    parser.add_argument("--editor", help="simulate, sweep: the Editor's agent")
    parser.add_argument("--nixon", help="simulate, sweep: Nixon's agent")
    parser.add_argument("--against", help="simulate: compare with shipped, base, a folder or a variant")
    parser.add_argument("--param", dest="params", action="append",
                        help="sweep: NAME=V1,V2,... (once or twice)")
    parser.add_argument("--agents", help="ladder: the agents, comma-separated")
    parser.add_argument("--data")
    parser.add_argument("--variant")
    parser.add_argument("--quiet", "-q", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "study":
        if not args.file:
            parser.error("study FILE: name the study file")
        study = args.file
    else:
        study = {"command": args.command}
        names = {"simulate": ("games", "seed", "editor", "nixon", "against"),
                 "sweep": ("games", "seed", "editor", "nixon", "params"),
                 "ladder": ("games", "seed", "agents")}[args.command]
        for name in ("editor", "nixon", "against", "params", "agents"):
            if getattr(args, name) is not None and name not in names:
                parser.error(f"--{name.rstrip('s') if name == 'params' else name}: "
                             f"not an option of {args.command}")
        for name in (*names, "data", "variant"):
            value = getattr(args, name)
            if value is not None:
                study[name] = watergate._agent_list(value) if name == "agents" else value
    try:
        result = run(study, address=args.address, shard_games=args.shard_games,
                     progress=not args.quiet)
    except (ValueError, watergate.DataError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 1 if result.get("partial") else 0


if __name__ == "__main__":
    sys.exit(main())
