"""Shared fixtures: the shipped game, loaded once, as OpenSpiel sees it.
OpenSpiel is a requirement of the test suite (never skipped)."""

import pyspiel
import pytest

import watergate.openspiel  # noqa: F401  (registers python_watergate)


@pytest.fixture(scope="session")
def game():
    return pyspiel.load_game("python_watergate")
