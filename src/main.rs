use std::collections::BTreeMap;
use watergate::agent::{Agent, RandomAgent};
use watergate::engine::Event;
use watergate::state::State;
use watergate::view::View;
fn main() {
    let rules = watergate::data::shipped();
    let mut wins = BTreeMap::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut rounds = 0u64;
    let mut buf = Vec::new();
    let n = 2000u64;
    for seed in 0..n {
        let mut ev: Vec<Event> = Vec::new();
        let mut s = State::new_observed(&rules, seed, &mut ev);
        let mut agents = [
            RandomAgent::new(seed * 2 + 1),
            RandomAgent::new(seed * 2 + 2),
        ];
        while let Some(actor) = s.legal(&rules, &mut buf) {
            let side = actor.side().expect("no chance");
            let view = View::new(&rules, &s, side);
            let c = agents[side.index()].decide(&view, &buf);
            s.apply_observed(&rules, c, &mut ev).unwrap();
            watergate::check::conservation(&rules, &s).unwrap();
        }
        for e in &ev {
            let k = match e {
                Event::Played {
                    card,
                    part,
                    reaction,
                    ..
                } => format!("played {:?} {} {}", part, reaction, rules.card(*card).id),
                other => format!("{:?}", other)
                    .split(|c: char| !c.is_alphanumeric())
                    .next()
                    .unwrap()
                    .to_string(),
            };
            *kinds.entry(k).or_default() += 1;
        }
        *wins.entry(format!("{:?}", s.outcome.unwrap())).or_insert(0) += 1;
        rounds += s.round as u64;
    }
    for (k, v) in kinds {
        println!("{v:8} {k}");
    }
    println!("{wins:#?} mean rounds {}", rounds as f64 / n as f64);
}
