//! Watergate's rules core: the game as data (`game`), the sandboxed script
//! host its card actions run on (`script`), and the loader that builds the
//! rules from RON files and rhai scripts (`data`), on the diagnostics of
//! `diag`.
//!
//! The modules are layers, lowest first; each may use only the layers
//! below it (`tests/repo/layers.rs`): `diag`, `game`, `script`, `data`. The core
//! knows nothing of the front ends: no command line, no server, no
//! terminal, no threads of its own.
//!
//! Feature: `shipped-data` embeds the card set of `cards/`, `scripts/` and
//! `scenarios/` (`data::DataSet::embedded`, `data::shipped`).
//!
//! # The public API
//!
//! Nothing is re-exported at the root: every item lives in its module. The
//! ones a user of the core needs, in one place:
//!
//! - **Loading a game.** A [`data::DataSet`] is the files, read by
//!   [`DataSet::from_dir`](data::DataSet::from_dir) or embedded
//!   ([`DataSet::embedded`](data::DataSet::embedded)); [`data::load`]
//!   checks one into [`Rules`](game::rules::Rules), reporting every
//!   problem. [`data::GameSource`] is a data folder and a variant together
//!   ([`GameSource::rules`](data::GameSource::rules)), a variant file a
//!   [`data::variant::Variant`]; `data::shipped` (feature `shipped-data`)
//!   loads the shipped game. [`data::read_user_file`] is the one reader of a
//!   file a user names ([`data::ReadError`]).
//! - **The rules.** [`game::rules::Rules`], read-only once loaded and shared
//!   by every game played on them.
//! - **A game.** [`game::state::State`]: [`State::new`](game::state::State::new)
//!   from a seed, [`State::new_explicit`](game::state::State::new_explicit)
//!   with every random event a decision of chance; then
//!   [`decision`](game::state::State::decision),
//!   [`legal`](game::state::State::legal),
//!   [`apply`](game::state::State::apply) (checked, rolled back on any
//!   error), [`apply_unchecked`](game::state::State::apply_unchecked),
//!   [`apply_next`](game::state::State::apply_next) and
//!   [`outcome`](game::state::State::outcome).
//! - **A position as data.** [`game::setup::Setup`], checked into a state
//!   by [`State::from_setup`](game::state::State::from_setup) (its problems
//!   as [`game::setup::SetupError`]s) and given back exactly by
//!   [`State::to_setup`](game::state::State::to_setup).
//! - **Decisions.** [`game::engine::Decision`] (actor, kind, options),
//!   [`game::engine::Choice`], [`game::engine::Actor`],
//!   [`game::engine::DecisionKind`]; why a choice was refused or failed:
//!   [`game::engine::PlayError`]. Choices as text:
//!   [`game::engine::notation`].
//! - **Events.** [`game::engine::Event`], given to an
//!   [`game::engine::Observer`] by the `_observed` forms of the doors.
//! - **What a player sees.** [`game::view::View`], one side's window on a
//!   state (agents decide from it alone;
//!   [`View::determinize`](game::view::View::determinize) deals the unseen
//!   again); [`game::observation::Observation`], an event as one side sees
//!   it, made by a [`game::observation::Sight`].
//! - **Scripting.** [`game::host::ScriptHost`], the only door from the
//!   rules core to a script, and [`script::RhaiHost`], its sandboxed rhai
//!   implementation.
//! - **The model.** [`game::model::Side`], [`game::model::BySide`],
//!   [`game::model::Outcome`].
//! - **Diagnostics.** [`diag::Diagnostic`], one problem at
//!   `path:line:col`, and [`diag::Diagnostics`], every problem of a run.
//! - **Checks.** [`game::invariants::conservation`]: nothing created or
//!   lost.
//!
//! # Example: a game played to its end
//!
//! The loop every front end runs: the decision, one of its options, until
//! the game has an outcome. Here each side takes the first option; a real
//! player decides from its [`View`](game::view::View) alone. A choice that
//! is not among the options is refused with a reason, and the game is left
//! as it was.
//!
//! ```
//! # #[cfg(feature = "shipped-data")] {
//! use watergate_core::data;
//! use watergate_core::game::engine::{notation, Actor, Choice, PlayError};
//! use watergate_core::game::state::State;
//! use watergate_core::game::view::View;
//!
//! // The shipped game (feature `shipped-data`); a data folder loads with
//! // `data::load(&data::DataSet::from_dir(path)?)`, every problem reported.
//! let rules = data::shipped();
//! let mut game = State::new(&rules, 42); // every hidden card follows from the seed
//!
//! // A choice that is not an option: refused, the game unchanged.
//! let before = game.clone();
//! let refused = game.apply(&rules, Choice::Branch(99));
//! assert!(matches!(refused, Err(PlayError::Illegal(_))));
//! assert_eq!(game.to_setup(), before.to_setup());
//!
//! while let Some(decision) = game.decision(&rules) {
//!     if let Actor::Player(side) = decision.actor {
//!         // What that side may know: its hand, the face-up tokens…
//!         let view = View::new(&rules, &game, side);
//!         assert_eq!(view.decision().map(|d| d.options), Some(decision.options.clone()));
//!     }
//!     let choice = decision.options[0];
//!     let _said = notation::format_choice(&rules, &game, choice); // `editor.deep_throat value`
//!     game.apply(&rules, choice)?;
//! }
//! let outcome = game.outcome().expect("a game with no decision left is over");
//! println!("{:?} won: {}", outcome.winner, outcome.cause.describe());
//! # }
//! # Ok::<(), watergate_core::game::engine::PlayError>(())
//! ```
//!
//! Agents that decide from a view (random, heuristic, ISMCTS) are in the
//! `watergate-players` crate, scenario files and game logs in
//! `watergate-formats`.
//!
//! Every public item is documented, and stays so: the crate warns on a
//! missing doc comment (`missing_docs`, below), and the workspace's clippy
//! runs with `-D warnings`, so CI fails on a new undocumented public item.

#![warn(missing_docs)]

pub mod data;
pub mod diag;
pub mod game;
pub mod script;
