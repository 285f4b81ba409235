//! Puzzle mining: positions of strong games in which the side to move wins
//! by force and exactly one first choice does so, proven by the solver
//! (`players::solve`), then graded by how often the agents of the ladder
//! find that choice. `watergate mine` (src/app/cli/mine.rs) plays the
//! games on the one runner and writes each puzzle as a scenario file;
//! `tests/cli/mined_puzzles.rs` proves the shipped ones again with [`prove`].
//!
//! A puzzle's claim is the solver's: "`side` can force a win within
//! `depth` of its own decisions" (the opponent's and chance's decisions in
//! between are free; a file says so with `depth_counts: Own`) against
//! every defence and every chance outcome. Unique means that after every
//! other first choice the side can no longer force a win within the
//! `depth - 1` own decisions left: the opponent escapes (or the round
//! ends), which the solver proves as well. [`prove`] also checks a claim
//! that counts every decision (`DepthCounts::Every`, hand-made puzzles). A position the solver
//! cannot settle within its node limit is no puzzle: it is not proven.

use crate::driver::{play_out, DriveError};
use crate::game::engine::notation::outcome_name;
use crate::game::engine::{Actor, Choice};
use crate::game::model::{BySide, Side, WinCause};
use crate::game::rules::Rules;
use crate::game::state::State;
use crate::game::view::View;
use crate::players::agent::AgentSpec;
use crate::players::solve::{solve_watched, DepthCounts, SolveConfig, Verdict};
use crate::sim::game_seed;
use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// What [`prove`] found in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The side wins by force within the depth, and only `first` does so;
    /// every other first choice is refuted (its refutation: the line the
    /// solver found after it, the first move of the escape first).
    Unique {
        first: Choice,
        refutations: Vec<(Choice, Vec<(String, String)>)>,
        /// Positions searched by the whole proof.
        nodes: u64,
    },
    /// The side cannot force a win within the depth.
    NoWin,
    /// Several first choices win: not a puzzle.
    Several(Vec<Choice>),
    /// Not the side's decision (the opponent's or chance's, or the end).
    NotToMove,
    /// The solver hit its node limit (or was stopped): nothing is proven.
    Unknown,
}

/// Proves (or refutes) that `side`, to move in `s`, forces a win within
/// `depth` decisions (as `counts` counts them) with exactly one first choice. `node_limit` bounds
/// each search of the proof; `go_on` is asked now and then and stops the
/// proof (as `Unknown`) when it answers `false`.
pub fn prove(
    r: &Rules,
    s: &State,
    side: Side,
    depth: u32,
    counts: DepthCounts,
    node_limit: u64,
    go_on: &dyn Fn() -> bool,
) -> Proof {
    let mut options = Vec::new();
    if s.legal(r, &mut options) != Some(Actor::Player(side)) || depth == 0 {
        return Proof::NotToMove;
    }
    let watch = |_: u64| go_on();
    let cfg = |plies| SolveConfig {
        side,
        max_plies: Some(plies),
        counts,
        node_limit,
    };
    // Counting every decision, none is left after the first at depth 1;
    // counting own decisions, the opponent and chance may still lose.
    let none_left = depth == 1 && counts == DepthCounts::Every;
    let whole = solve_watched(r, s, &cfg(depth), &watch);
    let mut nodes = whole.nodes;
    match whole.verdict {
        Verdict::Wins => {}
        Verdict::Cannot => return Proof::NoWin,
        Verdict::Unknown => return Proof::Unknown,
    }
    if whole.script_error.is_some() {
        // A failing script somewhere below: the verdict does not stand.
        return Proof::Unknown;
    }
    let mut winners = Vec::new();
    let mut refutations = Vec::new();
    for &c in &options {
        let mut next = s.clone();
        // As the solver searches: chance is a decision, never the generator's.
        next.set_explicit_chance(true);
        if next.apply_unchecked(r, c).is_err() {
            return Proof::Unknown;
        }
        let wins = match next.outcome() {
            Some(o) => o.winner == side,
            // No decision left to win with.
            None if none_left => false,
            None => {
                let after = solve_watched(r, &next, &cfg(depth - 1), &watch);
                nodes += after.nodes;
                if after.script_error.is_some() {
                    return Proof::Unknown;
                }
                match after.verdict {
                    Verdict::Wins => true,
                    Verdict::Cannot => {
                        refutations.push((c, after.line));
                        false
                    }
                    Verdict::Unknown => return Proof::Unknown,
                }
            }
        };
        if wins {
            winners.push(c);
        } else if next.outcome().is_some() || none_left {
            refutations.push((c, Vec::new()));
        }
    }
    match winners.as_slice() {
        [first] => Proof::Unique {
            first: *first,
            refutations,
            nodes,
        },
        // The whole position wins, so some first choice does; none would
        // mean the two searches disagree, which is not a proof either.
        [] => Proof::Unknown,
        _ => Proof::Several(winners),
    }
}

/// How hard a puzzle is, measured ([`Difficulty::of`]): by how many of the
/// ladder's agents (heuristic, `ismcts:100`, `ismcts:1000`) find its move,
/// and by the length of its shortest forced win and the positions the
/// solver needed to prove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    /// Every agent finds the move (in most of its tries).
    Easy,
    /// Some agent misses it, and it scores fewer than [`HARD_POINTS`].
    Medium,
    /// It scores [`HARD_POINTS`] or more.
    Hard,
}

/// A puzzle not every agent finds scores a point for each agent that
/// misses its move, one if its shortest forced win takes [`LONG_WIN`]
/// of the side's own decisions or more and one if the solver searched [`BIG_PROOF`]
/// positions or more to prove that win; from `HARD_POINTS` on it is hard.
pub const HARD_POINTS: usize = 4;
pub const LONG_WIN: u32 = 3;
pub const BIG_PROOF: u64 = 1000;

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    pub fn key(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Medium => "medium",
            Difficulty::Hard => "hard",
        }
    }

    pub fn parse(s: &str) -> Option<Difficulty> {
        Difficulty::ALL
            .into_iter()
            .find(|d| d.key().eq_ignore_ascii_case(s.trim()))
    }

    /// From how many agents found the move (in most of their tries) of how
    /// many, the shortest forced win's length and the positions searched
    /// to prove it: a puzzle every agent finds is easy whatever its length.
    pub fn of(finders: usize, agents: usize, shortest: u32, nodes: u64) -> Difficulty {
        if finders >= agents {
            return Difficulty::Easy;
        }
        let points = (agents - finders)
            + usize::from(shortest >= LONG_WIN)
            + usize::from(nodes >= BIG_PROOF);
        if points >= HARD_POINTS {
            Difficulty::Hard
        } else {
            Difficulty::Medium
        }
    }
}

/// How often one agent found the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finds {
    pub agent: String,
    pub found: u32,
    pub tries: u32,
}

impl Finds {
    /// Found in most tries.
    pub fn finds(&self) -> bool {
        2 * self.found > self.tries
    }
}

/// The agents of the ladder that grade a puzzle.
pub fn ladder_agents() -> Vec<AgentSpec> {
    ["heuristic", "ismcts:100", "ismcts:1000"]
        .iter()
        .filter_map(|a| AgentSpec::parse(a).ok())
        .collect()
}

/// How often each agent (`tries` times, each seeded apart) chooses `first`
/// from `side`'s view of `s`: agents decide from their view, as in a game.
pub fn grade(
    r: &Rules,
    s: &State,
    side: Side,
    first: Choice,
    agents: &[AgentSpec],
    tries: u32,
    seed: u64,
) -> Vec<Finds> {
    let mut options = Vec::new();
    s.legal(r, &mut options);
    agents
        .iter()
        .enumerate()
        .map(|(k, spec)| {
            let mut found = 0;
            for t in 0..tries {
                let mut agent = spec.build(game_seed(seed, 100 * k as u64 + t as u64), side);
                let chose = agent
                    .decide_index(&View::new(r, s, side), &options)
                    .ok()
                    .and_then(|i| options.get(i).copied());
                if chose == Some(first) {
                    found += 1;
                }
            }
            Finds {
                agent: spec.to_string(),
                found,
                tries,
            }
        })
        .collect()
}

/// A proven puzzle and what the mine measured of it.
#[derive(Clone, Debug)]
pub struct Mined {
    /// The game's index in the run, and its own seed (`game_seed`).
    pub game: u64,
    pub game_seed: u64,
    /// Decisions taken in the game before the position.
    pub decision: u64,
    pub state: State,
    pub side: Side,
    /// The claim's horizon, in the side's own decisions.
    pub depth: u32,
    pub first: Choice,
    pub first_name: String,
    /// The shortest forced win, in the side's own decisions, and the
    /// winning line then (who, choice), chance outcomes included: the
    /// worst for the side.
    pub shortest: u32,
    pub line: Vec<(String, String)>,
    /// The side's own decisions on that line.
    pub own_moves: u32,
    /// How the main line wins.
    pub cause: Option<WinCause>,
    /// Each other first choice and the opponent's escape after it.
    pub refutations: Vec<(String, Vec<(String, String)>)>,
    /// Positions the solver searched to prove the shortest win, and for
    /// the whole proof of uniqueness.
    pub nodes: u64,
    pub proof_nodes: u64,
    pub finds: Vec<Finds>,
    pub difficulty: Difficulty,
    /// The puzzle's idea, for dedup: the same side winning by the same
    /// own moves in the same way is the same puzzle.
    pub idea: String,
}

/// What mining one game found and cost.
#[derive(Clone, Debug, Default)]
pub struct GameMined {
    pub index: u64,
    pub seed: u64,
    pub puzzles: Vec<Mined>,
    /// Positions screened with the solver, and proven puzzles among them.
    pub candidates: u64,
    /// Positions whose first search won (before uniqueness was tested).
    pub won: u64,
    /// Won positions with several winning first choices.
    pub several: u64,
    /// Positions the solver could not settle within its limit.
    pub unknown: u64,
    pub solver_nodes: u64,
    pub solver_seconds: f64,
    pub play_seconds: f64,
    pub grade_seconds: f64,
    /// Why the game could not be played (a failing script): skipped.
    pub failed: Option<String>,
}

/// How to mine.
#[derive(Clone, Debug)]
pub struct MineOptions {
    /// Horizon of every claim, in the side's own decisions.
    pub depth: u32,
    /// The solver's limit for each search of a proof.
    pub node_limit: u64,
    /// The limit of the first, screening search of each position: most
    /// positions are no puzzle, and a cheap "unknown" drops them.
    pub screen_limit: u64,
    /// The agents that grade, and how often each tries.
    pub graders: Vec<AgentSpec>,
    pub tries: u32,
}

/// The positions of a game worth screening: a player's decision among
/// two options or more, with the decisions before it.
pub fn positions(r: &Rules, start: &State, choices: &[Choice]) -> Vec<(u64, State)> {
    let mut out = Vec::new();
    let mut s = start.clone();
    let mut options = Vec::new();
    for (k, &c) in choices.iter().enumerate() {
        if let Some(Actor::Player(_)) = s.legal(r, &mut options) {
            if options.len() >= 2 {
                out.push((k as u64, s.clone()));
            }
        }
        if s.apply(r, c).is_err() {
            break;
        }
    }
    out
}

/// Plays game `index` of a run seeded `run_seed` as `simulate` does (same
/// game seed, same agent seeds: `lab::sim::play_indexed`), and returns its
/// start and every choice taken.
pub fn self_play(
    r: &Rules,
    editor: &AgentSpec,
    nixon: &AgentSpec,
    run_seed: u64,
    index: u64,
) -> Result<(State, Vec<Choice>), String> {
    let seed = game_seed(run_seed, index);
    let mut e = editor.build_seat(game_seed(seed, 1), Side::Editor);
    let mut n = nixon.build_seat(game_seed(seed, 2), Side::Nixon);
    let start = State::new(r, seed);
    let mut s = start.clone();
    let mut choices = Vec::new();
    // The choices as the driver takes them: the game is kept as its start
    // and its choices (a log's form), each position made again on demand.
    struct Record<'a>(&'a mut Vec<Choice>);
    impl crate::game::engine::Observer for Record<'_> {}
    impl crate::driver::Steps for Record<'_> {
        type Error = std::convert::Infallible;
        fn chosen(
            &mut self,
            _s: &State,
            _actor: Actor,
            choice: Choice,
        ) -> Result<(), std::convert::Infallible> {
            self.0.push(choice);
            Ok(())
        }
    }
    play_out(
        r,
        &mut s,
        BySide::new(&mut e, &mut n),
        None,
        &mut Record(&mut choices),
    )
    .map_err(|e| match e {
        DriveError::Play(e) => format!("game {index} (seed {seed}): {e}"),
        DriveError::Lookahead { side, agent, error } => {
            format!("game {index} (seed {seed}): the {agent} agent ({side}): {error}")
        }
        other => format!("game {index} (seed {seed}): {other:?}"),
    })?;
    Ok((start, choices))
}

/// Mines the positions of one game (`index`, seeded `seed`: for the
/// record). At most one puzzle per side and round: the first proven one,
/// whose win is the longest of that round (the later ones are its tail).
pub fn mine_game(
    r: &Rules,
    index: u64,
    seed: u64,
    positions: &[(u64, State)],
    o: &MineOptions,
    stop: &AtomicBool,
) -> GameMined {
    let mut out = GameMined {
        index,
        seed,
        ..Default::default()
    };
    let go_on = || !stop.load(Ordering::SeqCst);
    let mut done: HashSet<(u16, Side)> = HashSet::new();
    for (decision, s) in positions {
        if !go_on() {
            break;
        }
        let mut options = Vec::new();
        let Some(Actor::Player(side)) = s.legal(r, &mut options) else {
            continue;
        };
        if options.len() < 2 || done.contains(&(s.round(), side)) {
            continue;
        }
        out.candidates += 1;
        let t = Instant::now();
        // The puzzle as the player meets it: a deck's order is hidden
        // (R5.14), so every card drawn is chance's, one of the deck's cards
        // (`explicit_deals`). A proof that knew the order would win by the
        // card on top, which the player cannot see. The agents grade the
        // position as dealt (`s`): they play on the game's own generator.
        let hidden = s;
        let s = &{
            let mut p = s.clone();
            p.set_explicit_deals(true);
            p
        };
        // The cheap screen: most positions are settled (or given up) fast.
        let screen = solve_watched(
            r,
            s,
            &SolveConfig {
                side,
                max_plies: Some(o.depth),
                counts: DepthCounts::Own,
                node_limit: o.screen_limit,
            },
            &|_| go_on(),
        );
        out.solver_nodes += screen.nodes;
        if screen.verdict != Verdict::Wins {
            if screen.verdict == Verdict::Unknown {
                out.unknown += 1;
            }
            out.solver_seconds += t.elapsed().as_secs_f64();
            continue;
        }
        out.won += 1;
        let proof = prove(r, s, side, o.depth, DepthCounts::Own, o.node_limit, &go_on);
        let found = match proof {
            Proof::Unique {
                first,
                refutations,
                nodes,
            } => {
                out.solver_nodes += nodes;
                shortest_win(r, s, side, o.depth, o.node_limit, &go_on).map(
                    |(shortest, line, sn, cause, own)| {
                        out.solver_nodes += sn;
                        (first, refutations, nodes, shortest, line, sn, cause, own)
                    },
                )
            }
            Proof::Several(_) => {
                out.several += 1;
                None
            }
            Proof::Unknown => {
                out.unknown += 1;
                None
            }
            Proof::NoWin | Proof::NotToMove => None,
        };
        out.solver_seconds += t.elapsed().as_secs_f64();
        let Some((first, refutations, proof_nodes, shortest, line, nodes, cause, own)) = found
        else {
            continue;
        };
        let g = Instant::now();
        let finds = grade(
            r,
            hidden,
            side,
            first,
            &o.graders,
            o.tries,
            game_seed(seed, *decision),
        );
        out.grade_seconds += g.elapsed().as_secs_f64();
        let finders = finds.iter().filter(|f| f.finds()).count();
        let first_name = outcome_name(r, s, first);
        // The idea: who wins how, from which phase, by which own moves.
        let idea = format!(
            "{}|{}|{:?}|{}",
            side.key(),
            cause.map_or("none", |c| c.key()),
            s.phase(),
            own.join(";")
        );
        out.puzzles.push(Mined {
            game: index,
            game_seed: seed,
            decision: *decision,
            state: s.clone(),
            side,
            depth: o.depth,
            first,
            first_name,
            shortest,
            own_moves: own.len() as u32,
            line,
            cause,
            refutations: refutations
                .into_iter()
                .map(|(c, l)| (outcome_name(r, s, c), l))
                .collect(),
            nodes,
            proof_nodes,
            difficulty: Difficulty::of(finders, finds.len(), shortest, nodes),
            finds,
            idea,
        });
        done.insert((s.round(), side));
    }
    out
}

/// The shortest forced win within `depth` own decisions: its length in
/// own decisions, its main line, the
/// positions searched at that length, how the line ends and the side's own
/// moves on it (as [`replay_line`] names them).
type Shortest = (
    u32,
    Vec<(String, String)>,
    u64,
    Option<WinCause>,
    Vec<String>,
);

fn shortest_win(
    r: &Rules,
    s: &State,
    side: Side,
    depth: u32,
    node_limit: u64,
    go_on: &dyn Fn() -> bool,
) -> Option<Shortest> {
    for d in 1..=depth {
        let res = solve_watched(
            r,
            s,
            &SolveConfig {
                side,
                max_plies: Some(d),
                counts: DepthCounts::Own,
                node_limit,
            },
            &|_| go_on(),
        );
        match res.verdict {
            Verdict::Wins => {
                let (cause, own) = replay_line(r, s, side, &res.line)?;
                return Some((d, res.line, res.nodes, cause, own));
            }
            Verdict::Unknown => return None,
            Verdict::Cannot => {}
        }
    }
    None
}

/// Plays a main line from `s`; when it ends in a win, how, and the side's
/// own moves on it as an idea names them: a card play, a reaction or a
/// question by name, but a pin's space or a track token by its kind only
/// (pinning the one token that connects is one idea on whichever space).
fn replay_line(
    r: &Rules,
    s: &State,
    side: Side,
    line: &[(String, String)],
) -> Option<(Option<WinCause>, Vec<String>)> {
    let mut cur = s.clone();
    cur.set_explicit_chance(true);
    let mut options = Vec::new();
    let mut own = Vec::new();
    for (_, text) in line {
        let actor = cur.legal(r, &mut options)?;
        let c = crate::game::engine::notation::parse_choice(r, &cur, text, &options).ok()?;
        if actor == Actor::Player(side) {
            own.push(match c {
                Choice::Space(_) => "a space".to_string(),
                Choice::Token(_) => "a token".to_string(),
                _ => outcome_name(r, &cur, c),
            });
        }
        cur.apply(r, c).ok()?;
    }
    cur.outcome().map(|o| (Some(o.cause), own))
}

/// Keeps a puzzle once per idea: `seen` holds the ideas kept so far by
/// their `idea_hash`, the form a puzzle file's `// Idea:` line keeps, so
/// that the ideas of the files already in `--out` are skipped too (they
/// never were while `seen` mixed whole ideas and hashes).
pub fn is_new(seen: &mut HashSet<String>, m: &Mined) -> bool {
    seen.insert(idea_hash(&m.idea))
}

/// A short, stable name for an idea (FNV-1a, hex): written in the file so
/// later runs into the same folder skip it, without giving the answer away.
pub fn idea_hash(idea: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in idea.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A few moves of a line, for a reader: `Nixon: react …, chance: draw blue`.
fn moves(line: &[(String, String)], most: usize) -> String {
    let mut s: Vec<String> = line
        .iter()
        .take(most)
        .map(|(who, c)| format!("{who}: {c}"))
        .collect();
    if line.len() > most {
        s.push("…".into());
    }
    s.join(", ")
}

/// The goal as stated to the player: who moves, and the claim's horizon.
pub fn goal(m: &Mined) -> String {
    format!(
        "{} to move: force a win within {} of {}'s own decisions, whatever {} does and chance brings.",
        m.side,
        m.depth,
        m.side,
        m.side.other()
    )
}

/// The puzzle as a scenario: the position, the goal, and in `puzzle` the
/// claim, the solution and why it is the only one. `from` says where it
/// was found (the game and the command), for the explanation.
pub fn scenario_def(
    r: &Rules,
    m: &Mined,
    from: &str,
) -> crate::formats::scenario::format::ScenarioDef {
    use crate::formats::scenario::format::PuzzleDef;
    let goal = goal(m);
    let name = format!(
        "Mined: {} to move in round {} (game {}, decision {})",
        m.side,
        m.state.round(),
        m.game,
        m.decision
    );
    let mut def = crate::formats::scenario::save::scenario_of(r, &m.state, &name, &goal);
    let cause = m.cause.map_or("the game is won", |c| c.describe());
    let mut explanation = vec![
        format!(
            "The only first move that forces a win within {}: {}.",
            DepthCounts::Own.count(m.depth),
            m.first_name
        ),
        format!(
            "The shortest forced win takes {} of {}'s decisions ({} in all on the main line, chance's worst outcomes for {}) and ends in a win: {cause}.",
            m.shortest,
            m.side,
            crate::game::wording::count(m.line.len(), "decision"),
            m.side
        ),
    ];
    if !m.refutations.is_empty() {
        explanation.push(format!(
            "Every other first move fails: after it {} cannot force a win in the own decisions left (the solver's line after it):",
            m.side
        ));
        for (alt, line) in &m.refutations {
            explanation.push(if line.is_empty() {
                format!("  {alt}: the game or the round is over without a win")
            } else {
                format!("  {alt}: {}", moves(line, 4))
            });
        }
    }
    explanation.push(format!(
        "Measured: the solver proved the shortest win in {} positions ({} for the whole proof of uniqueness); {}.",
        m.nodes,
        m.proof_nodes,
        finds_text(&m.finds)
    ));
    explanation.push(format!("Found in {from}."));
    def.puzzle = Some(PuzzleDef {
        side: m.side,
        goal: goal.clone(),
        wins: true,
        depth: Some(m.depth),
        depth_counts: DepthCounts::Own,
        theme: format!(
            "Mined by the solver: {} first, then a forced win ({cause})",
            m.first_name
        ),
        explanation,
        solution: m.line.iter().map(|(_, c)| c.clone()).collect(),
    });
    def
}

fn finds_text(finds: &[Finds]) -> String {
    if finds.is_empty() {
        return "not graded by agents".into();
    }
    let parts: Vec<String> = finds
        .iter()
        .map(|f| format!("{} {}/{}", f.agent, f.found, f.tries))
        .collect();
    format!("found by {}", parts.join(", "))
}

/// The header comments of a mined puzzle file: the goal, the difficulty
/// (read back by `watergate puzzle --list` and the studio), the idea's
/// hash (read back to skip duplicates) and the game it came from —
/// nothing of the answer.
pub fn header(m: &Mined, from: &str) -> String {
    let mut h = vec![
        format!("// Mined puzzle: {} to move, from {from}.", m.side),
        "//".to_string(),
        format!("// Goal: {}", goal(m)),
        // The main line is one line of the proof (the defence and chance
        // the solver rated worst for the side): other lines of the proof
        // may take more decisions in all, so its length is not the depth
        // at which `solve --depth N` (counting every decision) proves the
        // win; `solve --depth N --own` proves it at the shortest win.
        format!(
            "// Difficulty: {} ({}; solver: shortest forced win {}, main line {}, {})",
            m.difficulty.key(),
            finds_text(&m.finds),
            DepthCounts::Own.count(m.shortest),
            crate::game::wording::count(m.line.len(), "decision"),
            crate::game::wording::count(m.nodes as usize, "position"),
        ),
        format!("// Idea: {}", idea_hash(&m.idea)),
        "//".to_string(),
        "// Attempt it with `watergate puzzle` on this file (`hint` and `reveal` help);"
            .to_string(),
        "// `watergate solve` checks its claim. The solution and why it is the only one"
            .to_string(),
        "// are kept in `puzzle` below, out of the attempt's sight.".to_string(),
    ];
    h.push(String::new());
    h.join("\n")
}

/// The file: `header`, then the scenario as RON.
pub fn file_text(def: &crate::formats::scenario::format::ScenarioDef, header: &str) -> String {
    let text = crate::formats::scenario::save::to_text(def);
    // `to_text` opens with a line of its own about saved positions.
    let body = text.split_once('\n').map_or(text.as_str(), |(_, b)| b);
    format!("{header}{body}")
}

/// The value of a header comment `// Key: value` of a puzzle file, if the
/// header (the comments before `Scenario(`) has one.
pub fn header_field(text: &str, key: &str) -> Option<String> {
    let head = text.split("Scenario(").next().unwrap_or("");
    head.lines().find_map(|l| {
        let rest = l.trim_start().strip_prefix("//")?.trim_start();
        let v = rest.strip_prefix(key)?.strip_prefix(':')?;
        Some(v.trim().to_string())
    })
}

/// A puzzle file's difficulty, from its `// Difficulty:` header line.
pub fn difficulty_of(text: &str) -> Option<Difficulty> {
    let v = header_field(text, "Difficulty")?;
    Difficulty::parse(v.split_whitespace().next()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difficulty_counts_the_agents_that_find_the_move() {
        // Found by every agent: easy, however long the win.
        assert_eq!(Difficulty::of(3, 3, 10, 50_000), Difficulty::Easy);
        assert_eq!(Difficulty::of(1, 3, 2, 10), Difficulty::Medium);
        // Missed by every agent, but short and small to prove: medium.
        // (The length is in the side's own decisions: long from 3 on.)
        assert_eq!(Difficulty::of(0, 3, 2, 200), Difficulty::Medium);
        assert_eq!(Difficulty::of(0, 3, 3, 200), Difficulty::Hard);
        assert_eq!(Difficulty::of(1, 3, 3, 1500), Difficulty::Hard);
        assert_eq!(Difficulty::of(1, 3, 2, 1500), Difficulty::Medium);
        assert_eq!(Difficulty::of(2, 3, 10, 50_000), Difficulty::Medium);
        assert_eq!(Difficulty::parse(" Hard"), Some(Difficulty::Hard));
        assert_eq!(Difficulty::parse("expert"), None);
        let f = Finds {
            agent: "heuristic".into(),
            found: 2,
            tries: 3,
        };
        assert!(f.finds());
    }

    #[test]
    fn the_difficulty_is_read_from_the_header() {
        let text = "// Goal: x\n// Difficulty: medium (found by heuristic 0/3)\nScenario(name: \"Difficulty: hard\")";
        assert_eq!(difficulty_of(text), Some(Difficulty::Medium));
        assert_eq!(
            difficulty_of("Scenario(name: \"// Difficulty: hard\")"),
            None
        );
    }

    /// The hashes already written as `// Idea:` lines (the shipped mined
    /// puzzles, a user's `--out` folder) must keep matching: the hash is
    /// 64-bit FNV-1a, pinned by its published test vectors.
    #[test]
    fn an_idea_hash_is_fnv_1a_as_written_in_the_files() {
        assert_eq!(idea_hash(""), "cbf29ce484222325");
        assert_eq!(idea_hash("a"), "af63dc4c8601ec8c");
        assert_eq!(idea_hash("foobar"), "85944171f73967e8");
        assert_ne!(
            idea_hash("editor|connected|a"),
            idea_hash("nixon|connected|a")
        );
    }
}
