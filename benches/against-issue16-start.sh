#!/usr/bin/env bash
# Times a build of `watergate` against the engine as it was when issue 16
# (speed) was filed: commit 01f2d12, the last before the speed work, whose
# random games the issue measured at 25,400 games/s. Both builds play the
# same random games (the bench checks that their reports agree line for
# line), in rounds that run them back to back, so the ratio is the speed-up
# on this machine whatever its speed at the moment (BENCHMARKS.md).
#
# Needs the repository's history (a full clone) and, the first time, about
# two minutes to build the old engine (kept in target/issue16-start).
# Usage: benches/against-issue16-start.sh [WATERGATE]
#   WATERGATE: the build to time (default: target/release/watergate, built
#   first); for instance target/pgo/use/release/watergate.
set -euo pipefail
cd "$(dirname "$0")/.."

start=01f2d12
dir="$PWD/target/issue16-start"
old="$dir/release/watergate"
if [ ! -x "$old" ]; then
    if ! git cat-file -e "$start^{commit}" 2>/dev/null; then
        echo "benches/against-issue16-start.sh: commit $start is not in this clone; fetch the history first:" >&2
        echo "    git fetch --unshallow" >&2
        exit 2
    fi
    echo "building the engine at $start (once)" >&2
    rm -rf "$dir/src"
    mkdir -p "$dir/src"
    git archive "$start" | tar -x -C "$dir/src"
    cargo build --release --locked --manifest-path "$dir/src/Cargo.toml" --target-dir "$dir"
fi

new="${1:-}"
if [ -z "$new" ]; then
    cargo build --release --locked
    new=target/release/watergate
fi

# One core, as the issue's figures are (the children inherit it).
pin=()
if command -v taskset > /dev/null; then
    pin=(taskset -c 0)
fi
"${pin[@]}" "$new" bench --compare-build "$old"
