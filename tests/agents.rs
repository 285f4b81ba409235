//! Agents decide from what their player may see, and nothing else: two
//! games that differ only in hidden information (the opponent's hand and
//! deck, the viewer's deck order, the bag, the generator, and for the Editor
//! which tokens lie face down on the research track) produce the same
//! decisions from the same agent.

use watergate::game::model::*;
use watergate::game::rules::Rules;
use watergate::game::state::{EvLoc, GameRng, State};
use watergate::game::view::View;
use watergate::players::agent::{Agent, AgentSpec, Budget};

/// `s` with everything `viewer` cannot see dealt differently.
fn rehide(s: &State, viewer: Side, salt: u64) -> State {
    use rand::SeedableRng;
    let mut t = s.clone();
    t.rng = GameRng::seed_from_u64(salt ^ 0xDEAD_BEEF);
    let opp = viewer.other();
    let n = t.hands[opp.index()].len();
    let mut pool: Vec<CardId> = t.hands[opp.index()]
        .iter()
        .chain(t.decks[opp.index()].iter())
        .copied()
        .collect();
    t.shuffle(&mut pool);
    t.hands[opp.index()] = pool[..n].iter().copied().collect();
    t.decks[opp.index()] = pool[n..].iter().copied().collect();
    let mut own: Vec<CardId> = t.decks[viewer.index()].to_vec();
    t.shuffle(&mut own);
    t.decks[viewer.index()] = own.into_iter().collect();
    // The Editor cannot tell face-down track tokens from bag tokens.
    let slots: Vec<usize> = if viewer == Side::Editor {
        (0..t.track.len())
            .filter(|i| matches!(t.on_track(t.track[*i]), Some((_, false))))
            .collect()
    } else {
        vec![]
    };
    let mut tokens: Vec<TokenId> = slots
        .iter()
        .map(|i| t.track[*i])
        .chain(t.bag.iter().copied())
        .collect();
    t.shuffle(&mut tokens);
    let locs: Vec<EvLoc> = slots
        .iter()
        .map(|i| t.evidence[t.track[*i].index()])
        .collect();
    for (k, (slot, loc)) in slots.iter().zip(locs).enumerate() {
        t.track[*slot] = tokens[k];
        t.evidence[tokens[k].index()] = loc;
    }
    for tok in &tokens[slots.len()..] {
        t.evidence[tok.index()] = EvLoc::Bag;
    }
    t.bag = tokens[slots.len()..].iter().copied().collect();
    t
}

/// Decision points from games between random players.
fn positions(r: &Rules, n: usize) -> Vec<(State, Side)> {
    let mut out = Vec::new();
    let mut options = Vec::new();
    let mut seed = 0;
    while out.len() < n {
        let mut s = State::new(r, seed);
        let mut agent = watergate::players::agent::RandomAgent::new(seed);
        let mut k = 0u32;
        while let Some(actor) = s.legal(r, &mut options) {
            let side = actor.side().unwrap();
            if k.is_multiple_of(5) {
                out.push((s.clone(), side));
            }
            k += 1;
            let c = agent.decide(&View::new(r, &s, side), &options);
            s.apply(r, c).unwrap();
        }
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
        AgentSpec::Ismcts(Budget::Iterations(60)),
    ];
    let mut differing_states = 0;
    for (i, (s, side)) in positions(&r, 120).into_iter().enumerate() {
        let t = rehide(&s, side, i as u64);
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
        let mut t = s.clone();
        t.momentum_token = match s.momentum_token {
            Some(p) if p < 3 => Some(p + 1),
            Some(p) => Some(p - 2),
            None => continue,
        };
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
        Ok(AgentSpec::Ismcts(Budget::Iterations(2000)))
    );
    assert_eq!(
        AgentSpec::parse("ismcts:250ms"),
        Ok(AgentSpec::Ismcts(Budget::Millis(250)))
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
        let spec = AgentSpec::Ismcts(Budget::Iterations(100));
        let a = spec.build(3, side).decide(&View::new(&r, &s, side), &o);
        let b = spec.build(3, side).decide(&View::new(&r, &s, side), &o);
        assert_eq!(a, b);
    }
}
