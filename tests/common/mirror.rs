//! The same game as a studio session, played in the library beside it: a
//! test sends a choice over HTTP and applies the same option here (and the
//! random agent's replies, built with the session's seed), so it knows the
//! full state behind every response — what the Editor may not be sent.

use std::collections::BTreeSet;
use std::sync::{Arc, OnceLock};
use watergate::formats::narrate::narrate;
use watergate::game::engine::notation::{format_choice, kind_name};
use watergate::game::engine::{Actor, Choice, Decision, DecisionKind, Event, Observer};
use watergate::game::model::{CardId, Side};
use watergate::game::observation::Sight;
use watergate::game::rules::Rules;
use watergate::game::state::{EvLoc, PlayFrame, State};
use watergate::game::view::View;
use watergate::lab::sim::game_seed;
use watergate::players::agent::{Agent, AgentSpec};

pub struct Mirror {
    pub rules: Arc<Rules>,
    pub state: State,
    /// The random agent of the side no human plays, if any.
    agent: Option<(Side, Box<dyn Agent>)>,
    /// Cards the Editor has seen: their own hand, and every card that was
    /// public (discards, removed, on the table) or named to them.
    seen: BTreeSet<CardId>,
    /// Everything the Editor has been told, to know which kinds they know.
    told: String,
    /// Whether `seen` and `told` are kept (for [`Mirror::forbidden`]); a
    /// test that only follows the game (the load test) skips the narration.
    watch: bool,
    /// Hotseat: the player owed a screen after a play they could not
    /// answer while its player could not tell (the session's `Pause`),
    /// and the card played.
    pause: Option<(Side, CardId)>,
    /// The agent's secret choices so far (`choose_watching`).
    pub secret_choices: usize,
}

/// A choice's events, and the last play that went unanswered while its
/// player could not tell (R6).
struct Heard<'a> {
    rules: &'a Rules,
    events: Vec<Event>,
    unanswered: Option<(Side, CardId)>,
}

impl Observer for Heard<'_> {
    fn event(&mut self, e: Event) {
        self.events.push(e);
    }
    fn unanswered(&mut self, s: &State, play: &PlayFrame) {
        if s.could_be_answered(self.rules, play) {
            self.unanswered = Some((play.player.other(), play.card));
        }
    }
}

/// The shipped game, loaded once for every mirror of the test binary (a
/// load compiles every card's script: the load test starts 200 mirrors at
/// once, and their loads were the clients' first second).
fn shipped() -> Arc<Rules> {
    static RULES: OnceLock<Arc<Rules>> = OnceLock::new();
    Arc::clone(RULES.get_or_init(|| Arc::new(watergate::data::shipped())))
}

impl Mirror {
    /// A new deal with `seed`; `random_plays`: the side the random agent plays.
    pub fn new(seed: u64, random_plays: Option<Side>) -> Mirror {
        let rules = shipped();
        let mut events = Vec::new();
        let state = State::new_observed(&rules, seed, &mut events);
        let seen = Sight::new_game(Some(Side::Editor)).see_all(&events);
        let told = narrate(&rules, Some(Side::Editor), &seen).join("\n");
        let agent = random_plays.map(|side| {
            (
                side,
                AgentSpec::Random.build(game_seed(seed, side.index() as u64 + 1), side),
            )
        });
        let mut m = Mirror {
            rules,
            state,
            agent,
            seen: BTreeSet::new(),
            told,
            watch: true,
            pause: None,
            secret_choices: 0,
        };
        m.note_seen();
        m
    }

    /// [`Mirror::new`] for a test that only follows the game: no record of
    /// what the Editor was told, so [`Mirror::forbidden`] is not for it.
    pub fn unwatched(seed: u64, random_plays: Option<Side>) -> Mirror {
        Mirror {
            watch: false,
            ..Mirror::new(seed, random_plays)
        }
    }

    /// Who decides now and among what: the player owed a hotseat pause
    /// first, who may only pass.
    pub fn options(&self) -> (Option<Side>, Vec<Choice>) {
        if let Some((to, _)) = self.pause {
            return (Some(to), vec![Choice::Pass]);
        }
        let mut v = Vec::new();
        let side = match self.state.legal(&self.rules, &mut v) {
            Some(Actor::Player(s)) => Some(s),
            _ => None,
        };
        (side, v)
    }

    /// The notation of option `i` now.
    pub fn notation(&self, i: usize) -> String {
        let (_, v) = self.options();
        format_choice(&self.rules, &self.state, v[i])
    }

    /// Whether a hotseat pause is owed now (see `pause`).
    pub fn paused(&self) -> bool {
        self.pause.is_some()
    }

    /// The decision now, as the seat deciding is asked it: the hotseat
    /// pause as the reaction window it stands for.
    pub fn decision(&self) -> Option<Decision> {
        match self.pause {
            Some((to, card)) => Some(Decision {
                actor: Actor::Player(to),
                kind: DecisionKind::Reaction { against: card },
                options: vec![Choice::Pass],
            }),
            None => self.state.decision(&self.rules),
        }
    }

    /// Applies option `i`, then the agent's replies until a human decides.
    pub fn choose(&mut self, i: usize) {
        self.choose_watching(i, |_, _| {});
    }

    /// [`Mirror::choose`], calling `watch` after each move the human seat
    /// is shown, with the side that chose and the game then. An agent's
    /// secret choice (`DecisionKind::tells_the_other`: a pass in a reaction
    /// window) is no move of the seat's: its effects belong to the move
    /// before it, watched once it applied.
    pub fn choose_watching(&mut self, i: usize, mut watch: impl FnMut(Side, &Mirror)) {
        if self.pause.take().is_some() {
            // The pause passed: no choice, nothing applies.
            assert_eq!(i, 0, "a pause's only option is to pass");
            return;
        }
        let (side, v) = self.options();
        self.apply(v[i]);
        let mut shown = side.expect("a player's decision");
        loop {
            let (side, v) = self.options();
            let Some(side) = side else { break };
            let Some((agent_side, agent)) = self.agent.as_mut() else {
                break;
            };
            if *agent_side != side {
                break;
            }
            let c = agent.decide(&View::new(&self.rules, &self.state, side), &v);
            if self.state.decision_kind(&self.rules).tells_the_other(c) {
                watch(shown, self);
                shown = side;
            } else {
                self.secret_choices += 1;
            }
            self.apply(c);
        }
        watch(shown, self);
    }

    fn apply(&mut self, c: Choice) {
        let before = self.state.clone();
        let mut heard = Heard {
            rules: &self.rules,
            events: Vec::new(),
            unanswered: None,
        };
        self.state
            .apply_observed(&self.rules, c, &mut heard)
            .expect("the mirrored choice is legal");
        let Heard {
            events, unanswered, ..
        } = heard;
        if self.agent.is_none() {
            // Owed unless the screen goes to that player next anyway, or
            // the game is over.
            let next = self.options().0;
            self.pause = unanswered.filter(|(to, _)| next.is_some_and(|side| side != *to));
        }
        if !self.watch {
            return;
        }
        let seen = Sight::new(&before, Some(Side::Editor)).see_all(&events);
        let lines = narrate(&self.rules, Some(Side::Editor), &seen);
        self.told.push('\n');
        self.told.push_str(&lines.join("\n"));
        // A card named to the Editor (played, discarded) is seen.
        for (i, card) in self.rules.cards.iter().enumerate() {
            if lines.iter().any(|l| l.contains(&card.name)) {
                self.seen.insert(CardId(i as u8));
            }
        }
        self.note_seen();
    }

    fn note_seen(&mut self) {
        let s = &self.state;
        let mut add: Vec<CardId> = s.hand(Side::Editor).to_vec();
        add.extend(
            Side::BOTH
                .iter()
                .flat_map(|side| s.discards(*side).iter().copied()),
        );
        add.extend(s.removed().iter().copied());
        add.extend(
            View::new(&self.rules, s, Side::Editor)
                .in_play()
                .iter()
                .map(|p| p.card),
        );
        self.seen.extend(add);
    }

    /// What no response to the Editor may contain now: the id and quote of
    /// every card in Nixon's hand or either deck that the Editor has never
    /// seen, and the kind of a face-down research-track token that is
    /// two-coloured or carries the momentum symbol (so its name is
    /// distinctive) when no token of that kind is in view and none was
    /// named to the Editor.
    pub fn forbidden(&self) -> Vec<String> {
        assert!(
            self.watch,
            "an unwatched mirror knows nothing of what was told"
        );
        let s = &self.state;
        let r = &self.rules;
        let mut v = Vec::new();
        let hidden_cards = s
            .hand(Side::Nixon)
            .iter()
            .chain(Side::BOTH.iter().flat_map(|side| s.deck(*side).iter()));
        for c in hidden_cards {
            if self.seen.contains(c) {
                continue;
            }
            let card = r.card(*c);
            v.push(format!("\"{}\"", card.id));
            v.push(format!("{} ", card.id));
            if card.quote.len() > 20 {
                v.push(card.quote.clone());
            }
        }
        let view = View::new(r, s, Side::Editor);
        let mut public: BTreeSet<String> = view
            .board()
            .iter()
            .map(|t| kind_name(t.colours, t.momentum_symbol))
            .collect();
        public.extend(
            view.track()
                .iter()
                .filter_map(|t| t.colours.zip(t.momentum_symbol))
                .map(|(c, m)| kind_name(c, m)),
        );
        if let Some((c, m)) = view.held_token() {
            public.insert(kind_name(c, m));
        }
        for t in s.track().iter() {
            if let Some((_, false)) = s.on_track(*t) {
                let k = r.token(*t);
                let name = kind_name(k.colours, k.momentum_symbol);
                let distinctive = k.colours.len() == 2 || k.momentum_symbol;
                if distinctive && !public.contains(&name) && !self.told.contains(&name) {
                    v.push(name);
                }
            }
        }
        v
    }

    /// Slots of face-down tokens on the research track.
    pub fn face_down_slots(&self) -> Vec<u8> {
        View::new(&self.rules, &self.state, Side::Nixon)
            .track()
            .iter()
            .filter(|t| !t.face_up)
            .map(|t| t.slot)
            .collect()
    }

    pub fn in_bag(&self) -> usize {
        self.state
            .evidence()
            .iter()
            .filter(|l| matches!(l, EvLoc::Bag))
            .count()
    }
}
