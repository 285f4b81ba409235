//! Observations as one line of text for one viewer: what the terminal and
//! the replay print as the game goes on. The narrator reads only
//! [`Observation`]s, the events as the viewer may see them, filtered by the
//! rules core (`crate::game::observation`): a face-down token the Editor
//! cannot identify (R4.3) reaches it as `Seen::FaceDown` and is narrated as
//! "a face-down token". Hands are never named: events only count the cards
//! drawn.

use crate::game::engine::notation::{kind_name, pos_name};
use crate::game::engine::{Event, TokenKind};
use crate::game::model::*;
use crate::game::observation::{Observation, Seen};
use crate::game::rules::Rules;

/// Narrates observations for one viewer.
pub struct Narrator<'r> {
    r: &'r Rules,
    /// Whose eyes: `None` sees everything (replays). Marks the viewer's own
    /// side "(you)"; what is hidden is already hidden in the observations.
    viewer: Option<Side>,
}

impl<'r> Narrator<'r> {
    /// A narrator for `viewer`, who was given the observations it narrates.
    pub fn new(r: &'r Rules, viewer: Option<Side>) -> Narrator<'r> {
        Narrator { r, viewer }
    }

    /// A token as the viewer may name it.
    fn token(&self, t: Seen) -> String {
        match t {
            Seen::FaceDown => "a face-down token".to_string(),
            Seen::Token(t) => format!("the {} token", self.kind(t)),
        }
    }

    fn kind(&self, t: TokenId) -> String {
        let k = self.r.token(t);
        kind_name(k.colours, k.momentum_symbol)
    }

    fn card(&self, c: CardId) -> &str {
        &self.r.card(c).name
    }

    /// The side's name, marked for the viewer.
    fn who(&self, side: Side) -> String {
        if self.viewer == Some(side) {
            format!("{side} (you)")
        } else {
            side.name().to_string()
        }
    }

    /// The observation in one line.
    pub fn line(&self, e: &Observation) -> String {
        match e {
            Event::RoundStarted { round, initiative } => {
                format!("Round {round} begins; {initiative} holds the initiative.")
            }
            Event::CardsDrawn { side, count } => {
                format!(
                    "{} draws {count} card{}.",
                    self.who(*side),
                    plural(*count as usize)
                )
            }
            Event::DeckReshuffled { side } => {
                format!("{}'s discard pile is shuffled into a new deck.", side)
            }
            Event::EvidenceDrawn {
                token,
                pos,
                face_up,
            } => match token {
                Seen::FaceDown => format!(
                    "A face-down token is drawn from the bag onto {}.",
                    pos_name(*pos)
                ),
                Seen::Token(t) => format!(
                    "The {} token is drawn from the bag onto {} {}.",
                    self.kind(*t),
                    pos_name(*pos),
                    if *face_up { "face up" } else { "face down" }
                ),
            },
            Event::Played {
                side,
                card,
                part,
                reaction,
            } => {
                let c = self.r.card(*card);
                if *reaction {
                    // No second stop after a name that ends a sentence.
                    let stop = if c.name.ends_with(['!', '?', '.']) {
                        ""
                    } else {
                        "."
                    };
                    format!("{} reacts with {}{stop}", self.who(*side), c.name)
                } else {
                    format!(
                        "{} plays {} for its {}{}.",
                        self.who(*side),
                        c.name,
                        part.name(),
                        match part {
                            Part::Value => format!(" ({} {})", c.value, c.colours),
                            Part::Action => String::new(),
                        }
                    )
                }
            }
            Event::DrewToPlay { side, card } => format!(
                "{} draws {} from the deck and must play it at once.",
                self.who(*side),
                self.card(*card)
            ),
            Event::AskedColour { colour, found } => {
                if *found {
                    format!("The Editor asks for a face-down {colour} token; Nixon has one.")
                } else {
                    format!("The Editor asks for a face-down {colour} token; there is none, so the move is limited to {colour} (R5.6).")
                }
            }
            Event::Revealed { token } | Event::Flipped { token } => {
                format!("A token is turned face up: {}.", self.kind(*token))
            }
            Event::Cancelled { card } => format!("{} is cancelled.", self.card(*card)),
            Event::Moved { token, from, to } => {
                let what = match token {
                    TokenKind::Initiative => "The initiative token".to_string(),
                    TokenKind::Momentum => "The momentum token".to_string(),
                    TokenKind::Evidence(t) => capitalise(&self.token(*t)),
                };
                if from == to {
                    // An evidence token comes onto the track drawn (its own
                    // event): one "moved" where it stands was already there
                    // (an action that puts every token on 0, say). A new
                    // round's initiative and momentum tokens are placed.
                    if let TokenKind::Evidence(_) = token {
                        format!("{what} stays on {}.", pos_name(*to))
                    } else {
                        format!("{what} is placed on {}.", pos_name(*to))
                    }
                } else {
                    format!("{what} moves {} → {}.", pos_name(*from), pos_name(*to))
                }
            }
            Event::Gained { side, token } => {
                let what = match token {
                    TokenKind::Initiative => "the initiative".to_string(),
                    TokenKind::Momentum => "the momentum token".to_string(),
                    TokenKind::Evidence(t) => self.token(*t),
                };
                format!("{} gains {what}.", self.who(*side))
            }
            Event::ToBag { token } => {
                format!(
                    "{} goes back into the bag.",
                    capitalise(&self.token(*token))
                )
            }
            Event::Pinned {
                side,
                token,
                space,
                face_up,
            } => {
                // The board is public (R5.14): pinning shows the token.
                format!(
                    "{} pins the {} token on space {} {}.",
                    self.who(*side),
                    self.kind(*token),
                    self.r.board.spaces[space.index()].id,
                    if *face_up { "face up" } else { "face down" }
                )
            }
            Event::Unpinnable { token } => {
                format!(
                    "No empty space matches the {} token: it cannot be pinned.",
                    self.kind(*token)
                )
            }
            Event::PictureTaken {
                side,
                picture,
                face_up,
            } => format!(
                "{} pins the picture of {} {}.",
                self.who(*side),
                self.r.pictures[picture.index()].full_name,
                if *face_up {
                    "face up (a recruited informant)"
                } else {
                    "face down"
                }
            ),
            Event::PictureReturned { picture } => format!(
                "The picture of {} returns to the supply.",
                self.r.pictures[picture.index()].full_name
            ),
            Event::MomentumAwarded { side, space } => {
                let card = &self.r.momentum_cards[*side];
                let title = card
                    .spaces
                    .get(*space as usize)
                    .and_then(|s| s.title.clone())
                    .map(|t| format!(": {t}"))
                    .unwrap_or_default();
                format!(
                    "A momentum token goes on {}'s momentum card (space {} of {}){title}.",
                    side,
                    space + 1,
                    card.spaces.len()
                )
            }
            Event::MomentumReturned => "The momentum token returns to the supply.".to_string(),
            Event::MomentumRemoved => "A momentum token is removed from the game.".to_string(),
            Event::NewMomentum => "A new momentum token is placed on 0.".to_string(),
            Event::Discarded { side, card } => {
                format!("{} goes to {}'s discard pile.", self.card(*card), side)
            }
            Event::RemovedFromGame { card } => {
                format!("{} is removed from the game.", self.card(*card))
            }
            Event::Forbidden { side } => {
                format!("A restriction holds for {side} for the rest of the round.")
            }
            Event::ExtraTurn { side } => format!("{} takes another turn.", self.who(*side)),
            Event::CardPhaseEnded => "The card phase ends: every hand is discarded.".to_string(),
            Event::Won(o) => format!("{} wins: {}.", o.winner, o.cause.describe()),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Every observation narrated for `viewer` (who was given them), one line
/// each.
pub fn narrate(r: &Rules, viewer: Option<Side>, observations: &[Observation]) -> Vec<String> {
    let n = Narrator::new(r, viewer);
    observations.iter().map(|o| n.line(o)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::observation::Sight;
    use crate::game::state::State;

    #[test]
    fn the_editor_never_hears_the_kind_of_a_face_down_token() {
        let r = crate::data::shipped();
        let mut events = Vec::new();
        let s = State::new_observed(&r, 3, &mut events);
        let seen = |side| Sight::new_game(Some(side)).see_all(&events);
        let editor = narrate(&r, Some(Side::Editor), &seen(Side::Editor));
        let nixon = narrate(&r, Some(Side::Nixon), &seen(Side::Nixon));
        let drawn: Vec<&String> = editor.iter().filter(|l| l.contains("bag")).collect();
        assert_eq!(drawn.len(), s.track().len());
        for l in drawn {
            assert_eq!(l, "A face-down token is drawn from the bag onto 0.");
        }
        assert!(nixon
            .iter()
            .any(|l| l.contains("face down") && l.contains("token is drawn")));
    }

    /// A token an action leaves where it stands stays there (it is not a
    /// new one); a new round's initiative is placed; a card's name that
    /// ends a sentence gets no second stop.
    #[test]
    fn a_token_left_where_it_stands_stays_and_a_reaction_ends_once() {
        use crate::game::engine::event::TokenKind;
        let r = crate::data::shipped();
        let s = State::new(&r, 3);
        let token = s.track()[0];
        let money = r.card_by_id("editor.follow_the_money").unwrap();
        let events = [
            Event::Moved {
                token: TokenKind::Evidence(token),
                from: 0,
                to: 0,
            },
            Event::Moved {
                token: TokenKind::Initiative,
                from: 0,
                to: 0,
            },
            Event::Played {
                side: Side::Editor,
                card: money,
                part: Part::Action,
                reaction: true,
            },
        ];
        let seen = Sight::new_game(Some(Side::Nixon)).see_all(&events);
        let lines = narrate(&r, Some(Side::Nixon), &seen);
        assert!(lines[0].ends_with(" stays on 0."), "{}", lines[0]);
        assert_eq!(lines[1], "The initiative token is placed on 0.");
        assert_eq!(lines[2], "Editor reacts with Follow the money!");
    }
}
