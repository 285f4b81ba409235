//! The shape constraints D5 asks of the evidence board, measured on any
//! board: how many evidence spaces the shortest informant-to-Nixon path
//! crosses, which evidence spaces touch two informants, whether each
//! informant has two disjoint paths, and how many slips of each colour.
//! `watergate check` reports a board that misses them as warnings (a
//! designer may want another board), and a test holds the shipped board to
//! them.

use crate::game::model::{Colour, SpaceId};
use crate::game::rules::{Board, SpaceKind};
use std::collections::VecDeque;

/// What D5 asks (docs/open-questions.md#d5, revised): see `warnings`. The
/// evidence spaces the shortest path from an informant to Nixon crosses.
pub const SHORTEST_PATH: usize = 3;
/// The paths to Nixon that share no evidence space each informant has at
/// least (D5).
pub const DISJOINT_PATHS: usize = 2;

/// The figures of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Per informant space (by picture): the evidence spaces its shortest
    /// path to Nixon crosses (None: no path).
    pub shortest: Vec<(String, Option<usize>)>,
    /// Evidence spaces that touch two or more informant spaces.
    pub shared: Vec<String>,
    /// Per informant space: does it keep a path to Nixon with any one
    /// evidence space taken away (two disjoint paths, by Menger's theorem)?
    pub two_disjoint: Vec<(String, bool)>,
    /// Slips per colour (blue, yellow, green).
    pub colours: [usize; 3],
}

/// Evidence spaces crossed by the shortest path from `from` to Nixon that
/// runs through evidence spaces only, avoiding `blocked`.
fn distance(b: &Board, from: SpaceId, blocked: Option<SpaceId>) -> Option<usize> {
    let mut seen = vec![None; b.spaces.len()];
    seen[from.index()] = Some(0usize);
    let mut queue = VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        let d = seen[v.index()].unwrap_or(0);
        for &w in &b.neighbours[v.index()] {
            if w == b.nixon {
                return Some(d);
            }
            let passable = matches!(b.spaces[w.index()].kind, SpaceKind::Evidence(_));
            if passable && Some(w) != blocked && seen[w.index()].is_none() {
                seen[w.index()] = Some(d + 1);
                queue.push_back(w);
            }
        }
    }
    None
}

/// The figures of board `b` that D5 speaks of.
pub fn measure(b: &Board) -> Shape {
    let informants: Vec<(String, SpaceId)> = b
        .informant_spaces
        .iter()
        .map(|&s| (b.spaces[s.index()].id.clone(), s))
        .collect();
    let evidence: Vec<SpaceId> = (0..b.spaces.len())
        .map(|i| SpaceId(i as u8))
        .filter(|s| matches!(b.spaces[s.index()].kind, SpaceKind::Evidence(_)))
        .collect();
    let shortest = informants
        .iter()
        .map(|(id, s)| (id.clone(), distance(b, *s, None)))
        .collect();
    let shared = evidence
        .iter()
        .filter(|e| {
            b.neighbours[e.index()]
                .iter()
                .filter(|n| b.informant_spaces.contains(n))
                .count()
                > 1
        })
        .map(|e| b.spaces[e.index()].id.clone())
        .collect();
    let two_disjoint = informants
        .iter()
        .map(|(id, s)| {
            let ok = distance(b, *s, None).is_some()
                && evidence.iter().all(|&e| distance(b, *s, Some(e)).is_some());
            (id.clone(), ok)
        })
        .collect();
    let mut colours = [0; 3];
    for s in &b.spaces {
        if let SpaceKind::Evidence(c) = s.kind {
            colours[Colour::ALL.iter().position(|x| *x == c).unwrap_or(0)] += 1;
        }
    }
    Shape {
        shortest,
        shared,
        two_disjoint,
        colours,
    }
}

/// One way a board misses D5: what, in words, and the space it is most
/// about (the first informant or evidence space it names; `None` for the
/// slips' colours, which are about the whole board), for `watergate check`
/// to point at its line in the board file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What D5 asks that the board misses, in words.
    pub message: String,
    /// The id of the space it names first, if it names one.
    pub space: Option<String>,
}

impl Shape {
    /// Every way the board misses D5, in words (empty: it meets D5).
    pub fn warnings(&self) -> Vec<String> {
        self.located_warnings()
            .into_iter()
            .map(|w| w.message)
            .collect()
    }

    /// `warnings`, each with the space it is about.
    pub fn located_warnings(&self) -> Vec<Warning> {
        let mut out = Vec::new();
        let mut warn = |message: String, space: Option<&str>| {
            out.push(Warning {
                message,
                space: space.map(str::to_string),
            })
        };
        let min = self.shortest.iter().filter_map(|(_, d)| *d).min();
        match min {
            Some(d) if d < SHORTEST_PATH => {
                let short: Vec<_> = self
                    .shortest
                    .iter()
                    .filter(|(_, x)| *x == Some(d))
                    .map(|(id, _)| id.as_str())
                    .collect();
                warn(
                    format!(
                        "the shortest informant-to-Nixon path crosses {d} evidence space{} (from {}); D5 asks for {SHORTEST_PATH}",
                        if d == 1 { "" } else { "s" },
                        short.join(", ")
                    ),
                    short.first().copied(),
                );
            }
            _ => {}
        }
        if !self.shared.is_empty() {
            warn(
                format!(
                    "evidence space{} {} touch{} two informants; D5 asks that none does",
                    if self.shared.len() == 1 { "" } else { "s" },
                    self.shared.join(", "),
                    if self.shared.len() == 1 { "es" } else { "" }
                ),
                self.shared.first().map(String::as_str),
            );
        }
        let single: Vec<_> = self
            .two_disjoint
            .iter()
            .filter(|(_, ok)| !ok)
            .map(|(id, _)| id.as_str())
            .collect();
        if !single.is_empty() {
            warn(
                format!(
                    "{} ha{} fewer than {DISJOINT_PATHS} disjoint paths to Nixon (one evidence space cuts {}); D5 asks for {DISJOINT_PATHS}",
                    single.join(", "),
                    if single.len() == 1 { "s" } else { "ve" },
                    if single.len() == 1 { "it" } else { "each" }
                ),
                single.first().copied(),
            );
        }
        let (lo, hi) = (
            self.colours.iter().min().copied().unwrap_or(0),
            self.colours.iter().max().copied().unwrap_or(0),
        );
        let total: usize = self.colours.iter().sum();
        // "About equal": within one space, or a tenth of the board.
        if hi - lo > (total / 10).max(1) {
            warn(
                format!(
                    "slip colours are uneven ({} blue, {} yellow, {} green); D5 asks for about equal",
                    self.colours[0], self.colours[1], self.colours[2]
                ),
                None,
            );
        }
        out
    }
}
