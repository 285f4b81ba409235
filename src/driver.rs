//! The one game driver: `play_out` plays a game from a state to its end
//! (or until its observer stops it), one agent per side and, where the
//! state asks for explicit chance, a chance policy. The legal options are
//! computed once per step (`State::apply_next_observed` returns the next
//! step's), and the observer sees every step before the decision and after
//! the choice, and every engine event.

use crate::agent::Agent;
use crate::engine::{Actor, Choice, Observer, PlayError, ScriptError};
use crate::model::Side;
use crate::rules::Rules;
use crate::state::State;
use crate::view::View;
use std::ops::ControlFlow;

/// Watches a game played by [`play_out`]; it also hears the engine's
/// events (its [`Observer`] side). Both hooks may stop the game or fail it.
pub trait Steps: Observer {
    type Error;
    /// Before `actor` decides among `options` in `s`.
    fn before(
        &mut self,
        _s: &State,
        _actor: Actor,
        _options: &[Choice],
    ) -> Result<ControlFlow<()>, Self::Error> {
        Ok(ControlFlow::Continue(()))
    }
    /// After `actor` chose `choice` (a legal one) in `s`, before it applies.
    fn chosen(&mut self, _s: &State, _actor: Actor, _choice: Choice) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Why a game could not be played on.
#[derive(Debug)]
pub enum DriveError<E> {
    /// Applying a choice failed (a card script, or the engine).
    Play(PlayError),
    /// A card script failed inside an agent's look-ahead: a state the game
    /// can reach, so it is reported rather than quietly steered round.
    Lookahead {
        side: Side,
        agent: String,
        error: ScriptError,
    },
    /// An agent chose something that is not an option.
    Illegal { agent: String, choice: Choice },
    /// The state asked for a chance decision and there is no chance policy.
    NoChance,
    /// The observer failed the game.
    Observer(E),
}

/// How a game played by [`play_out`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Decisions applied.
    pub decisions: u64,
    /// Whether the observer stopped the game before its end.
    pub stopped: bool,
}

/// A chance policy: picks one of the chance options.
pub type Chance<'a> = &'a mut dyn FnMut(&State, &[Choice]) -> Choice;

/// Plays `s` on: `agents[side.index()]` decides for each side from its
/// view, `chance` (if any) for chance. Ends when the game has an outcome or
/// the observer stops it.
pub fn play_out<O: Steps>(
    r: &Rules,
    s: &mut State,
    agents: &mut [&mut dyn Agent; 2],
    mut chance: Option<Chance<'_>>,
    obs: &mut O,
) -> Result<Played, DriveError<O::Error>> {
    let mut options = Vec::new();
    let mut played = Played {
        decisions: 0,
        stopped: false,
    };
    let mut next = s.legal(r, &mut options);
    while let Some(actor) = next {
        if obs
            .before(s, actor, &options)
            .map_err(DriveError::Observer)?
            .is_break()
        {
            played.stopped = true;
            break;
        }
        let choice = match actor {
            Actor::Player(side) => {
                let agent = &mut agents[side.index()];
                let choice = agent.decide(&View::new(r, s, side), &options);
                if let Some(error) = agent.take_script_error() {
                    return Err(DriveError::Lookahead {
                        side,
                        agent: agent.name(),
                        error,
                    });
                }
                if !options.contains(&choice) {
                    return Err(DriveError::Illegal {
                        agent: agent.name(),
                        choice,
                    });
                }
                choice
            }
            Actor::Chance => match chance.as_mut() {
                Some(pick) => pick(s, &options),
                None => return Err(DriveError::NoChance),
            },
        };
        obs.chosen(s, actor, choice).map_err(DriveError::Observer)?;
        next = s
            .apply_next_observed(r, choice, &mut options, obs)
            .map_err(DriveError::Play)?;
        played.decisions += 1;
    }
    Ok(played)
}
