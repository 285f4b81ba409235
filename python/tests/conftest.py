"""Shared fixtures: the shipped game, loaded once, as OpenSpiel sees it,
and the CLI of this checkout. OpenSpiel is a requirement of the test suite
(never skipped)."""

import json
import os
import pathlib
import subprocess

import pyspiel
import pytest

import watergate.openspiel  # noqa: F401  (registers python_watergate)


@pytest.fixture(scope="session")
def game():
    return pyspiel.load_game("python_watergate")


REPO = pathlib.Path(__file__).resolve().parents[2]


def _newest_source():
    """The latest change to what the binary is built from."""
    newest = (REPO / "Cargo.lock").stat().st_mtime
    for folder in ("src", "crates", "cards", "scripts", "scenarios", "assets"):
        for path in (REPO / folder).rglob("*"):
            if path.is_file():
                newest = max(newest, path.stat().st_mtime)
    return newest


@pytest.fixture(scope="session")
def cli():
    """`watergate ARGS --json -q` of this checkout, as a dict. The binary is
    built first when it is missing or older than a source it embeds, so the
    CLI is never compared with the package from an older build (in CI it is
    the one `cargo test --workspace --release` just built: building it again
    alone, with other features, took minutes); `WATERGATE_BIN` names
    another binary instead."""
    exe = os.environ.get("WATERGATE_BIN")
    if not exe:
        exe = REPO / "target" / "release" / "watergate"
        if not exe.exists() or exe.stat().st_mtime < _newest_source():
            subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "watergate"],
                           cwd=REPO, check=True)

    def run(*args):
        out = subprocess.run([exe, *args, "--json", "-q"], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)
    return run
