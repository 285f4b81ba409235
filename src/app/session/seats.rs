//! Who plays each side of a session: a human, or an agent built from the
//! spec the player named. The driver (`lab::driver`) asks an agent per
//! side; a human's seat is an agent too, one that hands the driver the
//! answer its front end got from the human, who saw the position. So the
//! agents' moves and the humans' go through the same steps, at the
//! terminal and in the studio alike.

use crate::game::engine::Choice;
use crate::game::model::{BySide, Side};
use crate::game::view::View;
use crate::lab::sim::game_seed;
use crate::players::agent::{Agent, AgentSpec};
use std::sync::{Arc, Mutex};

/// Which sides humans play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Humans {
    /// One human; an agent plays the other side.
    One(Side),
    /// Two humans taking turns at one screen (hotseat).
    Both,
}

impl Humans {
    pub fn parse(s: &str) -> Result<Humans, String> {
        match s.to_ascii_lowercase().as_str() {
            "both" | "hotseat" => Ok(Humans::Both),
            other => Side::parse(other)
                .map(Humans::One)
                .ok_or_else(|| format!("`{s}`: expected editor, nixon or both")),
        }
    }

    pub fn plays(self, side: Side) -> bool {
        match self {
            Humans::One(s) => s == side,
            Humans::Both => true,
        }
    }
}

/// The choice a human gave their front end, waiting for their seat to
/// hand it to the driver: the session sets it before the driver asks the
/// seat. A mutex because agents are `Send`.
#[derive(Clone, Default)]
pub(super) struct Handover(Arc<Mutex<Option<Choice>>>);

impl Handover {
    /// The human's choice, for their seat to hand to the driver next.
    pub(super) fn give(&self, c: Choice) {
        if let Ok(mut a) = self.0.lock() {
            *a = Some(c);
        }
    }
}

/// A human's seat, as the driver sees it.
struct Human(Handover);

impl Agent for Human {
    fn name(&self) -> String {
        "human".into()
    }
    fn decide(&mut self, _: &View, _: &[Choice]) -> Choice {
        (self.0)
            .0
            .lock()
            .ok()
            .and_then(|mut a| a.take())
            .expect("the session asks the human before the driver asks the seat")
    }
}

/// The players of a session.
pub struct Seats {
    humans: Humans,
    /// The agent of each side no human plays.
    agents: BySide<Option<Box<dyn Agent>>>,
    /// The humans' seats, by side (used where no agent plays).
    seats: BySide<Human>,
    answer: Handover,
}

impl Seats {
    /// Humans where `humans` says, `ai` on the other side, seeded from the
    /// game's `seed` (`ai` is `None` only when humans play both sides).
    pub fn new(humans: Humans, ai: Option<&AgentSpec>, seed: u64) -> Seats {
        let agents = BySide::from_fn(|side| match ai {
            Some(ai) if !humans.plays(side) => {
                Some(ai.build(game_seed(seed, side.index() as u64 + 1), side))
            }
            _ => None,
        });
        let answer = Handover::default();
        Seats {
            humans,
            agents,
            seats: BySide::from_fn(|_| Human(answer.clone())),
            answer,
        }
    }

    pub fn humans(&self) -> Humans {
        self.humans
    }

    /// The players' names for the game log: `human`, or the agent's spec.
    pub fn names(humans: Humans, ai: Option<&AgentSpec>) -> BySide<String> {
        BySide::from_fn(|side| match ai {
            Some(ai) if !humans.plays(side) => ai.to_string(),
            _ => "human".to_string(),
        })
    }

    /// Who decides for each side, as the driver asks them, and where a
    /// human's choice waits for their seat.
    pub(super) fn players(&mut self) -> (Handover, BySide<&mut dyn Agent>) {
        let [editor, nixon] = [
            (&mut self.agents.editor, &mut self.seats.editor),
            (&mut self.agents.nixon, &mut self.seats.nixon),
        ]
        .map(|(agent, human)| -> &mut dyn Agent {
            match agent {
                Some(a) => a.as_mut(),
                None => human,
            }
        });
        (self.answer.clone(), BySide::new(editor, nixon))
    }

    /// The game went back (an undo): the agents forget the course they
    /// followed.
    pub(super) fn forget(&mut self) {
        for agent in self.agents.iter_mut().flatten() {
            agent.forget();
        }
    }
}
