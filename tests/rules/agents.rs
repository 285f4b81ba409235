//! Agents decide from what their player may see, and nothing else: two
//! games that differ only in hidden information (the opponent's hand and
//! deck, the viewer's deck order, the bag, the generator, and for the Editor
//! which tokens lie face down on the research track) produce the same
//! decisions from the same agent.

use std::ops::ControlFlow;
use watergate::game::engine::{Actor, Choice};
use watergate::game::model::*;
use watergate::game::rules::Rules;
use watergate::game::state::{GameRng, State};
use watergate::game::view::View;
use watergate::lab::driver::{play_out_alone, OnDecision};
use watergate::players::agent::{
    Agent, AgentSpec, Budget, IsmctsAgent, Playout, Search, DEFAULT_PLAYOUT,
};

/// `s` with everything `viewer` cannot see dealt differently.
fn rehide(r: &Rules, s: &State, viewer: Side, salt: u64) -> State {
    use rand::SeedableRng;
    let mut t = s.to_setup();
    t.rng = GameRng::seed_from_u64(salt ^ 0xDEAD_BEEF);
    let opp = viewer.other();
    let n = t.hands[opp].len();
    let mut pool: Vec<CardId> = t.hands[opp]
        .iter()
        .chain(t.decks[opp].iter())
        .copied()
        .collect();
    t.shuffle(&mut pool);
    t.hands[opp] = pool[..n].to_vec();
    t.decks[opp] = pool[n..].to_vec();
    let mut own: Vec<CardId> = t.decks[viewer].clone();
    t.shuffle(&mut own);
    t.decks[viewer] = own;
    // The Editor cannot tell face-down track tokens from bag tokens.
    let slots: Vec<usize> = if viewer == Side::Editor {
        (0..t.track.len())
            .filter(|i| !t.track[*i].face_up)
            .collect()
    } else {
        vec![]
    };
    let mut tokens: Vec<TokenId> = slots
        .iter()
        .map(|i| t.track[*i].token)
        .chain(t.bag.iter().copied())
        .collect();
    // Each slot keeps what everyone knows its token lacks (R5.6), so only
    // deals that agree with it are positions the viewer cannot tell apart.
    let lacks: Vec<Colours> = slots.iter().map(|i| t.track[*i].ruled_out).collect();
    let agrees = |tokens: &[TokenId]| {
        (lacks.iter().zip(tokens)).all(|(l, k)| !r.token(*k).colours.intersects(*l))
    };
    let dealt = tokens.clone();
    for _ in 0..1000 {
        t.shuffle(&mut tokens);
        if agrees(&tokens) {
            break;
        }
    }
    if !agrees(&tokens) {
        tokens = dealt;
    }
    // Each slot keeps its place and face; another token lies there.
    for (k, slot) in slots.iter().enumerate() {
        t.track[*slot].token = tokens[k];
    }
    t.bag = tokens[slots.len()..].to_vec();
    State::from_setup(r, t).expect("a reshuffled position is a position")
}

/// Decision points from games between random players.
fn positions(r: &Rules, n: usize) -> Vec<(State, Side)> {
    let mut out = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        let mut s = State::new(r, seed);
        let mut agent = watergate::players::agent::RandomAgent::new(seed);
        let mut k = 0u32;
        let mut every_fifth = OnDecision(|s: &State, actor: Actor, _: &[Choice]| {
            if k.is_multiple_of(5) {
                out.push((s.clone(), actor.side().unwrap()));
            }
            k += 1;
            ControlFlow::Continue(())
        });
        play_out_alone(r, &mut s, &mut agent, None, &mut every_fifth).unwrap();
        seed += 1;
    }
    out.truncate(n);
    out
}

#[test]
fn agents_cannot_see_hidden_information() {
    let r = watergate::data::shipped();
    let specs = [
        AgentSpec::Random,
        AgentSpec::Heuristic,
        AgentSpec::ismcts(Budget::Iterations(60)),
        AgentSpec::parse("ismcts:60:threads=2").unwrap(),
    ];
    let mut differing_states = 0;
    for (i, (s, side)) in positions(&r, 120).into_iter().enumerate() {
        let t = rehide(&r, &s, side, i as u64);
        if t != s {
            differing_states += 1;
        }
        let (mut oa, mut ob) = (Vec::new(), Vec::new());
        assert!(View::new(&r, &s, side).legal(&mut oa));
        assert!(View::new(&r, &t, side).legal(&mut ob));
        assert_eq!(oa, ob, "the options differ with hidden information only");
        for spec in &specs {
            let mut a = spec.build(99 + i as u64, side);
            let mut b = spec.build(99 + i as u64, side);
            let ca = a.decide(&View::new(&r, &s, side), &oa);
            let cb = b.decide(&View::new(&r, &t, side), &ob);
            assert_eq!(
                ca, cb,
                "{spec} decided differently on hidden information (position {i}, {side})"
            );
        }
    }
    assert!(
        differing_states > 100,
        "the test must really change hidden information"
    );
}

/// The control: the same agents do react to what their player can see.
#[test]
fn agents_do_react_to_visible_information() {
    let r = watergate::data::shipped();
    let mut different = 0;
    for (i, (s, side)) in positions(&r, 60).into_iter().enumerate() {
        // Change something visible: the momentum token's place.
        let mut t = s.to_setup();
        t.momentum_token = match s.momentum_token() {
            Some(p) if p < 3 => Some(p + 1),
            Some(p) => Some(p - 2),
            None => continue,
        };
        let t = State::from_setup(&r, t).expect("the token moved along the track");
        let (mut oa, mut ob) = (Vec::new(), Vec::new());
        View::new(&r, &s, side).legal(&mut oa);
        View::new(&r, &t, side).legal(&mut ob);
        if oa != ob || oa.is_empty() {
            continue;
        }
        let mut a = AgentSpec::Heuristic.build(7 + i as u64, side);
        let mut b = AgentSpec::Heuristic.build(7 + i as u64, side);
        if a.decide(&View::new(&r, &s, side), &oa) != b.decide(&View::new(&r, &t, side), &ob) {
            different += 1;
        }
    }
    assert!(different > 0);
}

#[test]
fn agent_names_parse_with_budgets() {
    assert_eq!(
        AgentSpec::parse("ismcts:2000"),
        Ok(AgentSpec::ismcts(Budget::Iterations(2000)))
    );
    assert_eq!(
        AgentSpec::parse("ismcts:250ms"),
        Ok(AgentSpec::ismcts(Budget::Millis(250)))
    );
    assert_eq!(AgentSpec::parse("heuristic"), Ok(AgentSpec::Heuristic));
    assert!(AgentSpec::parse("ismcts:0").is_err());
    assert!(AgentSpec::parse("random:5").is_err());
    assert!(AgentSpec::parse("alphazero")
        .unwrap_err()
        .contains("expected `random`, `heuristic`"));
}

#[test]
fn ismcts_is_reproducible_with_an_iteration_budget() {
    let r = watergate::data::shipped();
    for (s, side) in positions(&r, 10) {
        let mut o = Vec::new();
        View::new(&r, &s, side).legal(&mut o);
        let spec = AgentSpec::ismcts(Budget::Iterations(100));
        let a = spec.build(3, side).decide(&View::new(&r, &s, side), &o);
        let b = spec.build(3, side).decide(&View::new(&r, &s, side), &o);
        assert_eq!(a, b);
    }
}

#[test]
fn search_options_follow_the_budget_and_print_back() {
    let spec = AgentSpec::parse("ismcts:500:reuse:threads=2").unwrap();
    assert_eq!(
        spec,
        AgentSpec::Ismcts(Search {
            budget: Budget::Iterations(500),
            reuse: true,
            threads: 2,
            ..Search::from(Budget::Iterations(500))
        })
    );
    assert_eq!(spec.to_string(), "ismcts:500:reuse:threads=2");
    assert_eq!(AgentSpec::parse(&spec.to_string()), Ok(spec));
    assert_eq!(
        AgentSpec::parse("ismcts:1000").unwrap().to_string(),
        "ismcts:1000"
    );
    let err = AgentSpec::parse("ismcts:100:threads=0").unwrap_err();
    assert!(err.contains("threads=N with N from 1"), "{err}");
    let err = AgentSpec::parse("ismcts:100:deeper").unwrap_err();
    assert!(err.contains("unknown search option"), "{err}");
    let settle = AgentSpec::parse("ismcts:800:reuse:settle").unwrap();
    assert_eq!(settle.to_string(), "ismcts:800:reuse:settle");
    // Settling stops one tree; it needs the iterations left to be known.
    let err = AgentSpec::parse("ismcts:800:settle:threads=2").unwrap_err();
    assert!(
        err.contains("with `threads=N` the trees' sum decides"),
        "{err}"
    );
    let err = AgentSpec::parse("ismcts:250ms:settle").unwrap_err();
    assert!(err.contains("needs an iteration budget"), "{err}");
    // Playouts are judged after a few decisions unless asked to play out.
    let full = AgentSpec::parse("ismcts:300:playout=full").unwrap();
    assert_eq!(full.to_string(), "ismcts:300:playout=full");
    let AgentSpec::Ismcts(search) = full else {
        panic!("{full:?}")
    };
    assert_eq!(search.playout, Playout::Full);
    let AgentSpec::Ismcts(plain) = AgentSpec::parse("ismcts:300").unwrap() else {
        unreachable!()
    };
    assert_eq!(plain.playout, DEFAULT_PLAYOUT);
    let judged = AgentSpec::parse("ismcts:300:playout=25").unwrap();
    assert_eq!(judged.to_string(), "ismcts:300:playout=25");
    let err = AgentSpec::parse("ismcts:300:playout=forever").unwrap_err();
    assert!(err.contains("expected playout=full or playout=N"), "{err}");
}

#[test]
fn a_settled_search_chooses_what_the_whole_budget_chooses_sooner() {
    let r = watergate::data::shipped();
    let whole = Search::from(Budget::Iterations(400));
    let settle = Search {
        settle: true,
        ..whole
    };
    let (mut decisions, mut stopped_early, mut run) = (0, 0, 0);
    for (i, (s, side)) in positions(&r, 40).into_iter().enumerate() {
        let mut o = Vec::new();
        View::new(&r, &s, side).legal(&mut o);
        if o.len() < 2 {
            continue;
        }
        let seed = 70 + i as u64;
        let mut a = IsmctsAgent::with_search(whole, seed);
        let mut b = IsmctsAgent::with_search(settle, seed);
        let full = a.decide(&View::new(&r, &s, side), &o);
        let early = b.decide(&View::new(&r, &s, side), &o);
        assert_eq!(
            full, early,
            "position {i}: settling must not change the choice"
        );
        assert_eq!(a.last_iterations, 400);
        assert!(b.last_iterations <= 400);
        decisions += 1;
        run += b.last_iterations;
        stopped_early += usize::from(b.last_iterations < 400);
    }
    assert!(decisions >= 10, "{decisions} decisions with options");
    assert!(stopped_early > 0, "no search settled early in {decisions}");
    assert!(run < 400 * decisions as u32);
}

#[test]
fn root_parallel_ismcts_is_reproducible_for_a_seed_and_a_thread_count() {
    let r = watergate::data::shipped();
    let spec = AgentSpec::parse("ismcts:120:threads=3").unwrap();
    let mut differs_from_one_thread = 0;
    for (i, (s, side)) in positions(&r, 12).into_iter().enumerate() {
        let mut o = Vec::new();
        View::new(&r, &s, side).legal(&mut o);
        let seed = 40 + i as u64;
        let a = spec.build(seed, side).decide(&View::new(&r, &s, side), &o);
        let b = spec.build(seed, side).decide(&View::new(&r, &s, side), &o);
        assert_eq!(a, b, "the same seed and thread count choose the same");
        assert!(o.contains(&a), "{a:?} is one of the options");
        let one = AgentSpec::ismcts(Budget::Iterations(120));
        if one.build(seed, side).decide(&View::new(&r, &s, side), &o) != a {
            differs_from_one_thread += 1;
        }
    }
    // Three trees of 40 iterations are another search than one of 120.
    assert!(differs_from_one_thread > 0);
}

#[test]
fn root_parallel_ismcts_plays_whole_games_with_legal_moves() {
    use watergate::lab::driver::play_out;
    let r = watergate::data::shipped();
    let spec = AgentSpec::parse("ismcts:40:threads=2").unwrap();
    for seed in 0..2 {
        let mut s = State::new(&r, seed);
        let mut editor = spec.build(seed + 1, Side::Editor);
        let mut nixon = spec.build(seed + 2, Side::Nixon);
        let mut every = OnDecision(|_: &State, _: Actor, _: &[Choice]| ControlFlow::Continue(()));
        // The driver refuses an option that is not legal (`DriveError::Illegal`).
        play_out(
            &r,
            &mut s,
            BySide::new(editor.as_mut(), nixon.as_mut()),
            None,
            &mut every,
        )
        .expect("every choice is legal");
        assert!(s.outcome().is_some(), "R8.4: the game ends with a winner");
    }
}

/// Self-play of `ismcts:budget:reuse` with each search's iteration count:
/// (iterations run, searches). `tell`: whether the agents hear the choices.
fn reuse_game(r: &Rules, budget: u32, tell: bool, forget: bool) -> (u64, u64) {
    let search = Search {
        budget: Budget::Iterations(budget),
        reuse: true,
        ..Search::from(Budget::Iterations(budget))
    };
    let mut agents = [1, 2].map(|k| IsmctsAgent::with_search(search, k));
    let mut s = State::new(r, 5);
    let mut o = Vec::new();
    let (mut run, mut searches) = (0, 0);
    while let Some(Actor::Player(side)) = s.legal(r, &mut o) {
        let agent = &mut agents[side.index()];
        if forget {
            agent.forget();
        }
        let c = agent.decide(&View::new(r, &s, side), &o);
        assert!(o.contains(&c), "{c:?} is one of the options");
        if o.len() > 1 {
            run += agent.last_iterations as u64;
            searches += 1;
        }
        s.apply_next(r, c, &mut o).expect("a legal choice applies");
        if tell {
            for a in &mut agents {
                a.observe(Actor::Player(side), c);
            }
        }
    }
    (run, searches)
}

#[test]
fn a_kept_tree_saves_iterations_only_while_the_agent_follows_the_game() {
    let r = watergate::data::shipped();
    let (run, searches) = reuse_game(&r, 150, true, false);
    assert!(searches > 10);
    assert!(
        run < 150 * searches,
        "told every choice, the agents keep visits: {run} iterations in {searches} searches"
    );
    // Never told (a driver without `observe`), or told to forget (an
    // undo): every search starts afresh and runs its whole budget.
    let (run, searches) = reuse_game(&r, 150, false, false);
    assert_eq!(run, 150 * searches);
    let (run, searches) = reuse_game(&r, 150, true, true);
    assert_eq!(run, 150 * searches);
}
