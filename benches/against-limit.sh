#!/usr/bin/env bash
# Times this engine per decision against a hand-written engine of the
# value-plays-only subset of the game (no card actions, no reactions), both
# on one core in the same minutes: issue 38's first target (within 3x).
#
# The hand-written engine is not part of this repository: give its source
# folder (a Cargo project with `gen_tables.py CARDS OUT` writing the
# tables module of its own sources, and a binary printing `ns/step N` for
# `--games G --seed S --informants none`).
#
# The subset is made from the project's own data: `export` writes it, and
# every player card's reaction becomes `(part: Action, card_types: [])`, a
# reaction to the opponent's action part of every card type. No action part
# can then be used (a reaction card has no action on its own turn) and no
# reaction window ever opens, since no action is ever played. Both engines
# then play random games of value plays only; both count a decision as a
# choice among two or more options.
#
# Rounds alternate which engine runs first; only the ratio within a round
# means anything (the machine's speed moves between runs).
#
# Usage: benches/against-limit.sh LIMIT_SRC [WATERGATE] [ROUNDS]
#   WATERGATE: the build to time (default: target/release/watergate, built
#   first). ROUNDS: default 7.
set -euo pipefail
cd "$(dirname "$0")/.."

limit_src="${1:?usage: benches/against-limit.sh LIMIT_SRC [WATERGATE] [ROUNDS]}"
new="${2:-}"
rounds="${3:-7}"
if [ -z "$new" ]; then
    cargo build --release --locked
    new=target/release/watergate
fi

# Outside the checkout: a Cargo project inside it would be taken for a
# member of this workspace.
work="${TMPDIR:-/tmp}/watergate-against-limit"
rm -rf "$work/subset" "$work/src"
mkdir -p "$work"
"$new" export -q "$work/subset" > /dev/null
for f in "$work"/subset/cards/editor/*.ron "$work"/subset/cards/nixon/*.ron; do
    # `reaction: None` or `reaction: ( ... )` (one level of nested brackets).
    perl -0pi -e 's/reaction: (None|\((?:[^()]|\([^()]*\))*\))/reaction: (part: Action, card_types: [])/s' "$f"
done
changed=$(grep -h '^    reaction: (part: Action, card_types: \[\])' "$work"/subset/cards/editor/*.ron "$work"/subset/cards/nixon/*.ron | wc -l)
if [ "$changed" -ne 40 ]; then
    echo "against-limit: expected 40 player cards turned into reactions, found $changed" >&2
    exit 1
fi
"$new" check -q --data "$work/subset" > /dev/null

cp -r "$limit_src" "$work/src"
python3 "$work/src/gen_tables.py" "$work/subset/cards" "$work/src/src/tables.rs" > /dev/null
cargo build --release --quiet --manifest-path "$work/src/Cargo.toml" --target-dir "$work/target"
limit=$(find "$work/target/release" -maxdepth 1 -type f -perm -u+x | head -n 1)

pin=()
if command -v taskset > /dev/null; then
    pin=(taskset -c 0)
fi

project_ns() {
    "${pin[@]}" "$new" simulate --data "$work/subset" --threads 1 --games 200000 --seed 1 --json -q \
        | python3 -c '
import json, sys
d = json.load(sys.stdin)
t = d["raw"]["tally"]
per_game = t["decisions"] / t["games"]
print("%.2f %.2f %.3f" % (1e9 / d["games_per_second"] / per_game, per_game, d["mean_rounds"]))'
}
limit_ns() {
    "${pin[@]}" "$limit" --games 1000000 --seed 1 --informants none \
        | python3 -c '
import re, sys
text = sys.stdin.read()
print(re.search(r"ns/step ([0-9.]+)", text).group(1), re.search(r"steps/game ([0-9.]+)", text).group(1),
      re.search(r"mean rounds ([0-9.]+)", text).group(1))'
}

echo "round  project ns/decision  hand-written ns/decision  ratio"
ratios=()
for i in $(seq 1 "$rounds"); do
    if [ $((i % 2)) -eq 1 ]; then
        p=$(project_ns); l=$(limit_ns)
    else
        l=$(limit_ns); p=$(project_ns)
    fi
    read -r pns pdec pround <<< "$p"
    read -r lns ldec lround <<< "$l"
    ratio=$(python3 -c "print(f'{$pns / $lns:.2f}')")
    ratios+=("$ratio")
    printf '%5d  %19s  %24s  %5s\n' "$i" "$pns" "$lns" "$ratio"
done
echo "same game? decisions per game: project $pdec, hand-written $ldec; mean rounds: $pround and $lround"
printf '%s\n' "${ratios[@]}" | sort -n | awk '{a[NR]=$1} END {print "median ratio " a[int((NR+1)/2)] " (lowest " a[1] ", highest " a[NR] ")"}'
