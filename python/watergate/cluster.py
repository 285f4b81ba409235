"""Studies on a Ray cluster: simulations cut into shards by game index,
each shard a Ray task that plays through the Rust engine in
the worker's own process, merged exactly as ``watergate merge`` merges
shards.

    import watergate.cluster
    result = watergate.cluster.run({"command": "simulate", "games": 20000,
                                    "editor": "ismcts:300", "nixon": "ismcts:300"})
    result = watergate.cluster.run("study.json", address="auto")

or from a shell::

    python -m watergate.cluster simulate --games 20000 --editor ismcts:300 --address auto

A study is a dict (or a JSON file holding one) with ``command`` and the
options of :func:`watergate.simulate` (the CLI's options). Only ``simulate``
runs on a cluster so far; a sweep or a ladder is shipped there shard by
shard with their own ``shard`` option and merged.
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

import argparse
import json
import os
import sys
import time

import ray

import watergate

#: Games per shard unless the study says otherwise (``shard_games``).
DEFAULT_SHARD_GAMES = {"simulate": 500}

_LOADED = {}


def _game_from(files, labels):
    """The game of these files, loaded once per worker process."""
    key = (hash(tuple((name, bytes(data)) for name, data in files)), tuple(labels))
    game = _LOADED.get(key)
    if game is None:
        game = _LOADED[key] = watergate.load_files(files, *labels)
    return game


@ray.remote(max_retries=5)
def _play_shard(command, options, game_files, against_files, first, count):
    """One shard: games ``first .. first + count`` of the study, played in
    this worker's own process through the engine."""
    game = _game_from(*game_files)
    opts = dict(options)
    if against_files is not None:
        opts["against"] = _game_from(*against_files)
    if command == "simulate":
        return watergate.simulate(game=game, slice=(first, count), **opts)
    raise ValueError(f"study command {command!r}: only simulate runs on a cluster yet")


def _read_study(study):
    if isinstance(study, (str, os.PathLike)):
        with open(study) as f:
            study = json.load(f)
    if not isinstance(study, dict) or "command" not in study:
        raise ValueError("a study is a dict with a 'command' and its options")
    study = dict(study)
    command = study.pop("command")
    if command != "simulate":
        raise ValueError(
            f"study command {command!r}: only simulate runs on a cluster yet "
            "(sweep and ladder: use their shard option on each machine and merge)")
    return command, study


def _against_game(spec, data, game):
    """The compared game of ``against``, resolved as ``--against`` does."""
    if spec is None or isinstance(spec, watergate.Game):
        other = spec
    elif spec == "shipped":
        other = watergate.load()
    elif spec == "base":
        other = watergate.load(data)
    elif os.path.isdir(spec):
        other = watergate.load(spec)
    elif os.path.isfile(spec):
        other = watergate.load(data, spec)
    else:
        raise ValueError(f"against {spec!r}: expected 'shipped', 'base', a data folder or a variant file")
    if other is not None and other.fingerprint == game.fingerprint:
        raise ValueError(f"against {spec!r}: that is the same game as the one played: nothing to compare")
    return other


def run(study, address=None, shard_games=None, progress=True):
    """Runs ``study`` on Ray and returns the merged result: the dict that
    :func:`watergate.simulate` returns for the same options on one machine,
    with a ``cluster`` entry (shards, workers, seconds, games/s)."""
    command, options = _read_study(study)
    data, variant = options.pop("data", None), options.pop("variant", None)
    game = watergate.load(data, variant)
    against = _against_game(options.pop("against", None), data, game)
    games = int(options.pop("games", None) or 1000)
    size = int(shard_games or options.pop("shard_games", None) or DEFAULT_SHARD_GAMES[command])
    options["games"] = games
    options["threads"] = 1
    started_here = False
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started_here = address is None
    try:
        game_files = ray.put((game.files(), game.labels()))
        against_files = ray.put((against.files(), against.labels())) if against is not None else None
        shards = [(first, min(size, games - first)) for first in range(0, games, size)]
        pending = {
            _play_shard.remote(command, options, game_files, against_files, first, count): count
            for first, count in shards
        }
        results, done, start, interrupted = [], 0, time.time(), False
        try:
            while pending:
                ready, _ = ray.wait(list(pending), num_returns=1, timeout=0.5)
                for ref in ready:
                    done += pending.pop(ref)
                    results.append(ray.get(ref))
                if progress:
                    _show(done, games, start)
        except KeyboardInterrupt:
            interrupted = True
            for ref in pending:
                ray.cancel(ref, force=True)
        if progress:
            print(file=sys.stderr)
        if not results:
            raise KeyboardInterrupt("stopped before any shard had finished")
        merged = watergate.merge(results)
        seconds = time.time() - start
        merged["cluster"] = {
            "shards": len(shards),
            "shards_finished": len(results),
            "shard_games": size,
            "seconds": seconds,
            "games_per_second": done / max(seconds, 1e-9),
            "cpus": ray.cluster_resources().get("CPU", 0),
        }
        if interrupted:
            merged["partial"] = True
            merged["games_finished"] = done
            merged["games_asked"] = games
        return merged
    finally:
        if started_here:
            ray.shutdown()


def _show(done, total, start):
    rate = done / max(time.time() - start, 1e-9)
    try:
        busy = ray.cluster_resources().get("CPU", 0) - ray.available_resources().get("CPU", 0)
    except Exception:  # the figures are for the eye only
        busy = 0
    print(f"\r{done}/{total} games, {rate:.1f}/s, {busy:.0f} workers busy", end="", file=sys.stderr)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m watergate.cluster", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["simulate", "study"],
                        help="a study, or `study FILE` for a study file")
    parser.add_argument("file", nargs="?", help="with `study`: the study file (JSON)")
    parser.add_argument("--address", help="a Ray cluster: auto, or ray://host:port (default: start one here)")
    parser.add_argument("--shard-games", type=int, help="games per shard")
    parser.add_argument("--games", "-n", type=int)
    parser.add_argument("--seed", "-s", type=int)
    parser.add_argument("--editor")
    parser.add_argument("--nixon")
    parser.add_argument("--against")
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
        for name in ("games", "seed", "editor", "nixon", "against", "data", "variant"):
            value = getattr(args, name)
            if value is not None:
                study[name] = value
    result = run(study, address=args.address, shard_games=args.shard_games, progress=not args.quiet)
    print(json.dumps(result))
    return 1 if result.get("partial") else 0


if __name__ == "__main__":
    sys.exit(main())
