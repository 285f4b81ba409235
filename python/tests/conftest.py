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


@pytest.fixture(scope="session")
def cli():
    """`watergate ARGS --json -q` of this checkout, as a dict. The binary is
    brought up to date first (cargo does nothing when it is), so the CLI is
    never compared with the package from an older build; `WATERGATE_BIN`
    names another binary instead."""
    exe = os.environ.get("WATERGATE_BIN")
    if not exe:
        exe = str(REPO / "target" / "release" / "watergate")
        subprocess.run(["cargo", "build", "--release", "--locked", "--bin", "watergate"],
                       cwd=REPO, check=True)

    def run(*args):
        out = subprocess.run([exe, *args, "--json", "-q"], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout
        return json.loads(out)
    return run
