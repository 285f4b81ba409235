"""Types of ``watergate._engine``, the Rust extension (python/src/*.rs).

Each name here is one the extension exports; the test python/tests/
test_typing.py checks them against the built module with ``mypy.stubtest``,
so a class, method or argument added in Rust must be added here too.

Whole-number arguments take anything with ``__index__`` (a NumPy integer),
as the engine does; paths take ``str`` or an ``os.PathLike`` of ``str``
(``pathlib.Path``), not ``bytes``.
"""

import os
from collections.abc import Sequence
from pathlib import Path
from typing import (
    Any,
    ClassVar,
    Final,
    Literal,
    SupportsIndex,
    TypedDict,
    final,
    type_check_only,
)

from typing_extensions import TypeAlias

__all__ = [
    "DataError",
    "MAX_SEEDS",
    "Game",
    "Match",
    "load",
    "load_files",
    "against",
    "restore_game",
    "restore_match",
    "agent_spec",
    "simulate_json",
    "merge_json",
    "ladder_json",
    "sweep_json",
    "sweep_plan",
    "sweep_assemble",
    "ladder_assemble",
]

_Path: TypeAlias = str | os.PathLike[str]
# A file's contents: bytes, or anything the engine reads as a list of bytes.
_Bytes: TypeAlias = bytes | bytearray | memoryview | Sequence[int]
# A game's files: (path under the data root, contents), as `Game.files()` gives them.
_Files: TypeAlias = Sequence[tuple[str, _Bytes]]
# (path, line, column, message): line and column are 0 where there is no
# text to point into (a missing folder, a problem of the game as a whole).
_Problem: TypeAlias = tuple[str, int, int, str]

#: The most seeds a seeded game's root chooses among (2**20).
MAX_SEEDS: Final[int]

class DataError(ValueError):
    """The game's files do not load: ``problems`` lists every problem as
    (path, line, column, message). A ValueError, as json's decode errors are."""

    problems: list[_Problem]

# The dicts `Game.cards()` and `Match.hidden()` return: types only, there is
# no such class at runtime (`type_check_only` says so to stubtest and mypy).
@type_check_only
class _Card(TypedDict):
    id: str
    name: str
    side: Literal["editor", "nixon"]
    value: int
    action: str

@final
class Game:
    """A game, loaded and checked (by ``load``, ``load_files``)."""

    @property
    def name(self) -> str: ...
    @property
    def data(self) -> Path | None: ...
    @property
    def variant(self) -> Path | None: ...
    @property
    def warnings(self) -> list[_Problem]: ...
    @property
    def fingerprint(self) -> int: ...
    @property
    def num_distinct_actions(self) -> int: ...
    @property
    def max_chance_outcomes(self) -> int: ...
    @property
    def tensor_size(self) -> int: ...
    @property
    def tensor_layout(self) -> list[tuple[str, int]]: ...
    def labels(self) -> tuple[str, str]: ...
    def cards(self) -> list[_Card]: ...
    def files(self) -> list[tuple[str, bytes]]: ...
    def __eq__(self, value: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]: ...

@type_check_only
class _Sides(TypedDict):
    editor: list[str]
    nixon: list[str]

@type_check_only
class _Hidden(TypedDict):
    hands: _Sides
    decks: _Sides
    bag: list[int]
    track: list[int]
    track_face_down: list[bool]
    track_kinds: list[str]

@final
class Match:
    """A game in progress, as OpenSpiel plays it."""

    # `__eq__` without `__hash__`: a state changes as it is played.
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __new__(
        cls,
        game: Game,
        chance: Literal["explicit", "seeded"] = "explicit",
        seeds: SupportsIndex = 1000,
    ) -> Match: ...
    @property
    def game(self) -> Game: ...
    @property
    def chance(self) -> Literal["explicit", "seeded"]: ...
    @property
    def seeds(self) -> int | None: ...
    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def apply_action(self, action: SupportsIndex) -> None: ...
    def action_to_string(self, player: SupportsIndex, action: SupportsIndex) -> str: ...
    def returns(self) -> list[float]: ...
    def outcome(self) -> tuple[str, str] | None: ...
    def observation_string(self, player: SupportsIndex) -> str: ...
    def information_state_string(self, player: SupportsIndex) -> str: ...
    def observation_tensor(self, player: SupportsIndex) -> list[float]: ...
    def observation_tensor_bytes(self, player: SupportsIndex) -> bytes: ...
    def resample(self, player: SupportsIndex, seed: SupportsIndex) -> Match: ...
    def agent_action(self, spec: str, seed: SupportsIndex) -> int: ...
    def hidden(self) -> _Hidden | None: ...
    def clone(self) -> Match: ...
    def __copy__(self) -> Match: ...
    def __deepcopy__(self, _memo: Any) -> Match: ...
    def to_bytes(self) -> bytes: ...
    def __reduce__(self) -> tuple[Any, tuple[bytes]]: ...
    def __eq__(self, value: object, /) -> bool: ...

def load(data: _Path | None = None, variant: _Path | None = None) -> Game: ...
def load_files(
    files: _Files, label: str | None = None, source_label: str | None = None
) -> Game: ...
def against(game: Game, spec: str) -> Game: ...
def restore_game(
    data: _Path | None,
    variant: _Path | None,
    fingerprint: SupportsIndex,
    given_data: _Path | None = None,
    given_variant: _Path | None = None,
) -> Game: ...
def restore_match(bytes: bytes) -> Match: ...
def agent_spec(spec: str) -> str: ...
def simulate_json(
    game: Game,
    games: SupportsIndex | None = None,
    seed: SupportsIndex = 1,
    editor: str = "random",
    nixon: str = "random",
    against: str | None = None,
    against_game: Game | None = None,
    precision: float | None = None,
    shard: str | None = None,
    slice: tuple[SupportsIndex, SupportsIndex] | None = None,
    threads: SupportsIndex | None = None,
    progress: bool = False,
) -> str: ...
def merge_json(results: Sequence[str]) -> str: ...
def ladder_json(
    game: Game,
    agents: Sequence[str],
    games: SupportsIndex = 20,
    seed: SupportsIndex = 1,
    threads: SupportsIndex | None = None,
    progress: bool = False,
) -> str: ...
def sweep_json(
    game: Game,
    params: Sequence[str],
    games: SupportsIndex = 200,
    seed: SupportsIndex = 1,
    editor: str = "heuristic",
    nixon: str = "heuristic",
    shard: str | None = None,
    threads: SupportsIndex | None = None,
    progress: bool = False,
) -> str: ...
def sweep_plan(
    game: Game,
    params: Sequence[str],
    games: SupportsIndex = 200,
    seed: SupportsIndex = 1,
    editor: str = "heuristic",
    nixon: str = "heuristic",
) -> tuple[str, list[tuple[str, list[tuple[str, bytes]]]]]: ...
def sweep_assemble(key: str, points: Sequence[Sequence[str]], partial: bool = False) -> str: ...
def ladder_assemble(
    game: Game,
    agents: Sequence[str],
    games: SupportsIndex,
    seed: SupportsIndex,
    pairings: Sequence[Sequence[str]],
    partial: bool = False,
) -> str: ...
