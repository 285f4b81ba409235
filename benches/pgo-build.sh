#!/usr/bin/env bash
# A profile-guided (PGO) release build of `watergate`, for long studies.
#
# The same code as `cargo build --release`, laid out by the compiler from a
# profile of the engine at work: random games (the simulation loop) and a
# few ISMCTS self-play games (the search). Every seed plays the same game
# as in the ordinary build; only the speed differs (BENCHMARKS.md has the
# figures). Needs LLVM's profile merger from the toolchain:
#     rustup component add llvm-tools
# Usage: benches/pgo-build.sh   (then run target/pgo/use/release/watergate)
set -euo pipefail
cd "$(dirname "$0")/.."

profdata=$(find "$(rustc --print sysroot)" -name llvm-profdata -type f 2>/dev/null | head -n 1)
if [ -z "$profdata" ]; then
    echo "benches/pgo-build.sh: llvm-profdata not found in the toolchain; install it with" >&2
    echo "    rustup component add llvm-tools" >&2
    exit 2
fi

dir="$PWD/target/pgo"
# Whole-program optimization as well: with the profile it adds about 7 %
# (BENCHMARKS.md); alone it gained nothing measurable.
export CARGO_PROFILE_RELEASE_LTO=fat CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1
rm -rf "$dir/profiles" "$dir/merged.profdata"
# The label `watergate bench` prints on its `build:` line. Set for the
# training build too, so both builds compile the same code (otherwise the
# bench's profile would not match it).
export WATERGATE_BUILD_KIND="profile-guided (benches/pgo-build.sh)"

echo "1/3 instrumented build" >&2
RUSTFLAGS="-Cprofile-generate=$dir/profiles" \
    cargo build --release --locked --target-dir "$dir/train"

echo "2/3 training runs" >&2
trainer="$dir/train/release/watergate"
"$trainer" --quiet simulate --games 20000 --threads 1 --seed 1 > /dev/null
"$trainer" --quiet simulate --games 4 --editor ismcts:1000 --nixon ismcts:1000 \
    --threads 1 --seed 1 > /dev/null
"$profdata" merge -o "$dir/merged.profdata" "$dir/profiles"

echo "3/3 optimized build" >&2
RUSTFLAGS="-Cprofile-use=$dir/merged.profdata" \
    cargo build --release --locked --target-dir "$dir/use"

echo "built $dir/use/release/watergate" >&2
