"""The strength comparison command (AI_STRENGTH.md) plays, records each game
as it ends, resumes where it stopped and reports both bots' figures."""

import json

import pytest

from watergate import strength


def test_two_games_each_side_once_then_resumed(tmp_path, capsys):
    out = tmp_path / "runs.jsonl"
    strength.main(["--iterations", "3", "--games", "2", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["game"] for r in rows] == [0, 1]
    assert [r["ours_side"] for r in rows] == ["editor", "nixon"]
    assert all(r["ours_searches"] > 0 and r["openspiel_searches"] > 0 for r in rows)
    strength.main(["--iterations", "3", "--games", "2", "--out", str(out)])
    assert len(out.read_text().splitlines()) == 2, "nothing played twice"
    table = capsys.readouterr().out
    assert "| 3 | 2 |" in table
    # A second run sharing the work (games 1 and 2): game 1 is in the file
    # already, so it plays game 2 only, and its progress counts its range.
    strength.main(["--iterations", "3", "--first", "1", "--games", "2", "--out", str(out)])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["game"] for r in rows] == [0, 1, 2]
    progress = capsys.readouterr().err
    assert "2/2 games" in progress and "3/2" not in progress, progress


def test_a_game_another_run_played_meanwhile_is_not_played_again(tmp_path, monkeypatch):
    # Two runs share the work with overlapping ranges: while this one plays
    # game 0, the other writes game 1, which this one then skips.
    out = tmp_path / "runs.jsonl"
    played = []
    real_play = strength.play

    def play(game, g, iterations):
        played.append(g)
        row = real_play(game, g, iterations)
        if g == 0:
            with open(out, "a") as f:
                f.write(json.dumps(real_play(game, 1, iterations)) + "\n")
        return row

    monkeypatch.setattr(strength, "play", play)
    strength.main(["--iterations", "3", "--games", "3", "--out", str(out)])
    assert played == [0, 2]
    assert sorted(json.loads(line)["game"] for line in out.read_text().splitlines()) == [0, 1, 2]


def test_wilson_interval():
    lo, hi = strength.wilson(200, 400)
    assert abs(lo - 0.451) < 0.001 and abs(hi - 0.549) < 0.001


@pytest.mark.parametrize("argv, said", [
    (["--report", "missing.jsonl"], "--report: missing.jsonl: No such file or directory"),
    (["--iterations", "0", "--out", "x.jsonl"], "--iterations: expected a whole number from 1, got 0"),
    (["--games", "-2", "--out", "x.jsonl"], "--games: expected a whole number from 1, got -2"),
    (["--first", "-1", "--out", "x.jsonl"], "--first: expected a whole number from 0, got -1"),
    (["--out", "no/such/folder/x.jsonl"], "--out: no/such/folder/x.jsonl: No such file or directory"),
])
def test_bad_arguments_are_an_error_line_not_a_traceback(tmp_path, monkeypatch, capsys, argv, said):
    """As argparse refuses an argument: usage, then `error:` and what is
    wrong, exit status 2; a missing file or 0 iterations printed a
    FileNotFoundError or EngineBot's ValueError traceback."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit:
        strength.main(argv)
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert f"error: {said}" in err and "Traceback" not in err
    assert not (tmp_path / "x.jsonl").exists(), "nothing played"
