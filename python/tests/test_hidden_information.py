"""R4.3, R5.14: what the Editor may not know stays out of everything the
Editor is shown. Two positions that differ only in Nixon's hand, in a
deck's order or in which token lies face down on the research track give
the Editor the same information state and observation, strings and tensors."""

import random

import pyspiel


def _positions(game, games, seed):
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                yield state.clone()
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])


def _editor_sees(state):
    return (
        state.information_state_string(0),
        state.information_state_tensor(0),
        state.observation_string(0),
        state.observation_tensor(0),
    )


def test_the_editor_cannot_tell_nixons_hand_decks_or_face_down_tokens(game):
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    kinds = {"nixon's hand": 0, "a deck's order": 0, "face-down tokens": 0}
    for state in _positions(game, 8, seed=11):
        other = state.resample_from_infostate(0, sampler)
        a, b = state.match.hidden(), other.match.hidden()
        kinds["nixon's hand"] += sorted(a["hands"]["nixon"]) != sorted(b["hands"]["nixon"])
        kinds["a deck's order"] += any(a["decks"][s] != b["decks"][s] for s in a["decks"])
        kinds["face-down tokens"] += a["track"] != b["track"]
        assert a["hands"]["editor"] == b["hands"]["editor"], "the Editor's own hand stays"
        assert _editor_sees(other) == _editor_sees(state)
    assert all(kinds.values()), kinds


def test_nixon_sees_his_face_down_tokens(game):
    """The Editor's resample moves face-down tokens; Nixon, who placed them
    (R4.2), can tell those positions apart when their kinds differ."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    told = 0
    for state in _positions(game, 8, seed=12):
        other = state.resample_from_infostate(0, sampler)
        if state.match.hidden()["track_kinds"] != other.match.hidden()["track_kinds"]:
            assert other.observation_string(1) != state.observation_string(1)
            told += 1
    assert told > 0


def _kind_has(kind, colour):
    """Whether a token kind (`blue`, `blue/yellow`, `green*`) has the colour."""
    return colour in kind.rstrip("*").split("/")


def test_a_resample_keeps_what_a_negative_answer_told_the_editor(game):
    """R5.6: the Editor asked for a face-down token of a colour and there was
    none. Every state resampled for her right after keeps the face-down
    tokens free of that colour, while the tokens themselves are dealt again
    (from the bag and one another)."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    asked, moved = 0, 0
    for state in _positions(game, 80, seed=13):
        # The information state is what she saw, `--`, then what she sees now.
        lines = state.information_state_string(0).splitlines()
        seen_now = len(state.observation_string(0).splitlines())
        assert lines[-seen_now - 1] == "--"
        last = lines[-seen_now - 2]
        if "asks for a face-down" not in last or "there is none" not in last or asked >= 12:
            continue
        colour = last.split("face-down ")[1].split(" token")[0]
        hidden = state.match.hidden()
        down = [i for i, d in enumerate(hidden["track_face_down"]) if d]
        if not down:
            continue
        asked += 1
        # What she sees now says it of each face-down token: "down not blue".
        track = next(l for l in state.observation_string(0).splitlines() if l.startswith("track ["))
        downs = [t for t in track[len("track ["):-1].split(", ") if " down" in t]
        assert downs and all(colour in t.split(" not ")[1] for t in downs), (track, colour)
        for _ in range(20):
            other = state.resample_from_infostate(0, sampler)
            seen = other.match.hidden()
            assert seen["track_face_down"] == hidden["track_face_down"]
            moved += seen["track"] != hidden["track"]
            assert _editor_sees(other) == _editor_sees(state)
            for i in down:
                assert not _kind_has(seen["track_kinds"][i], colour), (i, seen, colour)
    assert asked >= 3, "random games reach negative answers with tokens face down"
    assert moved > 0, "the face-down tokens were dealt again"


def test_a_resample_tells_the_editor_the_same_as_play_goes_on(game):
    """A state resampled for the Editor, then played on with the same moves
    (by name) as the state it came from: while what she has been told is the
    same in both (a move may tell her something the deal changed, such as
    the token an ask turns up), so is the board she sees now. It was once
    listed by token id, which the deal changes."""
    rng = random.Random(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    compared = 0
    for start in list(_positions(game, 30, seed=14))[::9]:
        a, b = start.clone(), start.resample_from_infostate(0, sampler)
        for _ in range(60):
            if a.is_terminal() or b.is_terminal():
                break
            named = [{s.action_to_string(s.current_player(), x): x for x in s.legal_actions()}
                     for s in (a, b)]
            common = sorted(set(named[0]) & set(named[1]))
            if not common:
                break
            name = rng.choice(common)
            a.apply_action(named[0][name])
            b.apply_action(named[1][name])
            told = [s.information_state_string(0).rsplit("\n--\n", 1) for s in (a, b)]
            if told[0][0] != told[1][0]:
                break
            boards = [next(l for l in t[1].splitlines() if l.startswith("board [")) for t in told]
            assert boards[0] == boards[1], name
            compared += 1
    assert compared > 500, compared


def test_a_resample_with_a_seeded_sampler_deals_the_same_again(game):
    """The deal comes from the sampler alone: a sampler seeded alike gives
    the same states (a search with seeded samplers plays the same game)."""
    state = next(s for s in _positions(game, 1, seed=15) if s.match.hidden()["bag"])

    def dealt():
        sampler = pyspiel.UniformProbabilitySampler(42, 0.0, 1.0)
        return [state.resample_from_infostate(0, sampler).match.hidden() for _ in range(3)]

    first = dealt()
    assert first == dealt()
    assert first[0] != first[1], "one sampler's values deal different states"


def _history(state, player):
    return state.information_state_string(player).rsplit("\n--\n", 1)[0].splitlines()


def test_a_pass_or_the_pick_of_a_token_to_turn_up_is_not_told_to_the_other_player(game):
    """The engine offers a reaction window (R6) only to a player holding a
    card that can react, and asks Nixon which token to turn up (R5.6) only
    when two or more fit. At the table a player declines to react, and
    turns a token up, without telling how many he could choose from: the
    other player's record shows no pass, and the token only as the event
    that turns it up. The chooser's own record keeps the choice."""
    passes = picks = 0
    for state in _positions(game, 60, seed=16):
        player = state.current_player()
        said = _history(state, player)
        asked = len(said) > 0 and "asks for a face-down" in said[-1] and player == 1
        for action in state.legal_actions():
            name = state.action_to_string(player, action)
            if name != "pass" and not asked:
                continue
            after = state.clone()
            after.apply_action(action)
            mine = _history(after, player)[len(said):]
            theirs = _history(after, 1 - player)[len(_history(state, 1 - player)):]
            assert any(line.endswith(name) for line in mine), (name, mine)
            assert not any(line.endswith(name) for line in theirs), (name, theirs)
            if asked:
                picks += 1
                assert any("turn" in line for line in theirs), theirs
            else:
                passes += 1
    assert passes > 20 and picks > 5, (passes, picks)
