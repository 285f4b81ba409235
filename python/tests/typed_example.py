"""The package used as the README shows it, every value given the type the
stubs (watergate/_engine.pyi) and the studies' annotations promise.
test_typing.py checks this file with `mypy --strict` and runs it: a stub
that promises the wrong type fails the first, an example that no longer
works fails the second.

OpenSpiel is left out: `pyspiel` has no types, so a strict check of code
that imports it fails whatever this package declares.
"""

from __future__ import annotations

import pathlib
from typing import Any

import watergate


def play(game: watergate.Game, seed: int) -> tuple[str, str]:
    """A seeded game played to its end by the engine's heuristic agent,
    looking at what a player may see on the way."""
    match = watergate.Match(game, chance="seeded", seeds=10)
    while not match.is_terminal():
        if match.is_chance_node():
            outcomes: list[tuple[int, float]] = match.chance_outcomes()
            match.apply_action(outcomes[seed % len(outcomes)][0])
            continue
        player: int = match.current_player()
        seen: str = match.information_state_string(player)
        now: str = match.observation_string(player)
        tensor: list[float] = match.observation_tensor(player)
        assert now in seen and len(tensor) == game.tensor_size
        action: int = match.agent_action("heuristic", seed)
        assert action in match.legal_actions()
        said: str = match.action_to_string(player, action)
        assert said
        match.apply_action(action)
    returns: list[float] = match.returns()
    assert sorted(returns) == [-1.0, 1.0]
    outcome = match.outcome()
    assert outcome is not None
    return outcome


def hidden_information(game: watergate.Game) -> None:
    """A resample keeps what the Editor has seen; a state survives bytes."""
    match = watergate.Match(game)
    while match.is_chance_node():
        match.apply_action(match.legal_actions()[0])
    other: watergate.Match = match.resample(0, 7)
    assert other.observation_string(0) == match.observation_string(0)
    hidden = other.hidden()
    assert hidden is not None
    hand: list[str] = hidden["hands"]["editor"]
    assert hand
    saved: bytes = match.to_bytes()
    assert watergate.restore_match(saved) == match


def main() -> None:
    game = watergate.load()
    name: str = game.name
    folder: pathlib.Path | None = game.data
    fingerprint: int = game.fingerprint
    assert name and folder is None and fingerprint == game.fingerprint
    for card in game.cards():
        side: str = card["side"]
        value: int = card["value"]
        assert side in ("editor", "nixon") and value >= 0
    copy = watergate.load_files(game.files(), *game.labels())
    assert copy.fingerprint == game.fingerprint
    try:
        watergate.load(data="")
    except watergate.DataError as e:
        problems: list[tuple[str, int, int, str]] = e.problems
        assert problems[0][0] == "data"

    winner, cause = play(game, 3)
    assert winner in ("editor", "nixon") and cause
    hidden_information(game)

    result: dict[str, Any] = watergate.simulate(games=4, editor="heuristic", threads=1)
    assert result["run"]["games"] == 4
    shards = [watergate.simulate(games=4, shard=f"{i}/2", threads=1) for i in (1, 2)]
    assert watergate.merge(shards)["run"] == watergate.simulate(games=4, threads=1)["run"]
    sweep = watergate.sweep("game.hand_size_with_initiative=4,5", games=2, threads=1)
    ladder = watergate.ladder(["random", "heuristic"], games=2, threads=1)
    assert sweep and ladder


if __name__ == "__main__":
    main()
