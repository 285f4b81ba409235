//! The game's vocabulary: sides, colours, card types and the small ids that
//! index into the loaded [`crate::game::rules::Rules`]. Nothing here knows a number
//! of the game; sizes come from the data.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the two roles (R1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// The Editor; she holds the initiative at the start (R2.2).
    Editor,
    /// Nixon, the Nixon Administration.
    Nixon,
}

impl Side {
    /// Both sides, the Editor first (the order of [`Side::index`]).
    pub const BOTH: [Side; 2] = [Side::Editor, Side::Nixon];

    /// The opponent.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::Editor => Side::Nixon,
            Side::Nixon => Side::Editor,
        }
    }

    /// Index into per-side arrays: Editor 0, Nixon 1.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Direction on the research track: positions on the Editor's side are
    /// positive, on Nixon's side negative (R1.3).
    #[inline]
    pub fn sign(self) -> i8 {
        match self {
            Side::Editor => 1,
            Side::Nixon => -1,
        }
    }

    /// The side's name as the rules write it: "Editor" or "Nixon".
    pub fn name(self) -> &'static str {
        match self {
            Side::Editor => "Editor",
            Side::Nixon => "Nixon",
        }
    }

    /// The side's key in files, card ids and scripts: "editor" or "nixon".
    pub fn key(self) -> &'static str {
        match self {
            Side::Editor => "editor",
            Side::Nixon => "nixon",
        }
    }

    /// Reads a side from its key or initial ("editor", "e", "nixon", "n"),
    /// ignoring case; `None` for anything else.
    pub fn parse(s: &str) -> Option<Side> {
        match s.to_ascii_lowercase().as_str() {
            "editor" | "e" => Some(Side::Editor),
            "nixon" | "n" => Some(Side::Nixon),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An evidence colour (R1.5), also a colour of a card's value (R1.7) and of
/// an evidence space's colour slip (R1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colour {
    /// Blue.
    Blue,
    /// Yellow.
    Yellow,
    /// Green.
    Green,
}

impl Colour {
    /// The three colours in their fixed order: blue, yellow, green.
    pub const ALL: [Colour; 3] = [Colour::Blue, Colour::Yellow, Colour::Green];

    /// The colour's bit in a [`Colours`] set: blue 1, yellow 2, green 4.
    #[inline]
    pub fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// The colour's name in lower case, as files and scripts write it.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Blue => "blue",
            Colour::Yellow => "yellow",
            Colour::Green => "green",
        }
    }

    /// Reads a colour from its name or initial ("blue", "b", "yellow", "y",
    /// "green", "g"), ignoring case; `None` for anything else.
    pub fn parse(s: &str) -> Option<Colour> {
        match s.to_ascii_lowercase().as_str() {
            "blue" | "b" => Some(Colour::Blue),
            "yellow" | "y" => Some(Colour::Yellow),
            "green" | "g" => Some(Colour::Green),
            _ => None,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of colours: a card's value colours or a token's colours. A card
/// showing all three is a joker (R1.7); a two-coloured token counts as either
/// colour (R1.5), so matching is set intersection (R5.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Colours(pub u8);

impl Colours {
    /// No colour.
    pub const NONE: Colours = Colours(0);
    /// All three colours: a joker (R1.7).
    pub const ALL: Colours = Colours(0b111);

    /// The set of the colours listed.
    pub fn of(list: &[Colour]) -> Colours {
        Colours(list.iter().fold(0, |acc, c| acc | c.bit()))
    }

    /// The set of one colour.
    #[inline]
    pub fn single(c: Colour) -> Colours {
        Colours(c.bit())
    }

    /// Whether the set holds `c`.
    #[inline]
    pub fn contains(self, c: Colour) -> bool {
        self.0 & c.bit() != 0
    }

    /// Whether the two sets share a colour: a card matches a token, or a token a
    /// colour slip (R5.4, R7.6).
    #[inline]
    pub fn intersects(self, other: Colours) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether the set holds all three colours: a joker (R1.7), which matches
    /// every colour (R5.4).
    #[inline]
    pub fn is_joker(self) -> bool {
        self == Colours::ALL
    }

    /// Whether the set holds no colour.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many colours the set holds (0 to 3).
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The colours of the set in the order blue, yellow, green.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Colour> {
        Colour::ALL.into_iter().filter(move |c| self.contains(*c))
    }
}

impl fmt::Display for Colours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joker() {
            return f.write_str("joker");
        }
        let names: Vec<&str> = self.iter().map(Colour::name).collect();
        f.write_str(&names.join("/"))
    }
}

/// A player card's type (R1.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CardType {
    /// An event: leaves the game after its action has been used (R5.10).
    Event,
    /// A conspirator (Nixon's cards only): goes to Nixon's discard pile after
    /// its action (R5.10).
    Conspirator,
    /// A journalist (the Editor's cards only): goes to the Editor's discard pile
    /// after its action (R5.10).
    Journalist,
}

impl CardType {
    /// The type's name in lower case, as files and scripts write it.
    pub fn name(self) -> &'static str {
        match self {
            CardType::Event => "event",
            CardType::Conspirator => "conspirator",
            CardType::Journalist => "journalist",
        }
    }

    /// Reads a type from its name ("event", "conspirator", "journalist"),
    /// ignoring case; `None` for anything else.
    pub fn parse(s: &str) -> Option<CardType> {
        match s.to_ascii_lowercase().as_str() {
            "event" => Some(CardType::Event),
            "conspirator" => Some(CardType::Conspirator),
            "journalist" => Some(CardType::Journalist),
            _ => None,
        }
    }
}

impl fmt::Display for CardType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which half of a card is used (R5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Part {
    /// Played for its value: move one token on the research track (R5.3).
    Value,
    /// Played for its action: carry out the card's instructions (R5.9).
    Action,
}

impl Part {
    /// The part's name in lower case: "value" or "action".
    pub fn name(self) -> &'static str {
        match self {
            Part::Value => "value",
            Part::Action => "action",
        }
    }
}

/// Where a played card ends up (R5.7, R5.10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Dest {
    /// The owner's discard pile (R5.7, R5.10).
    Discard,
    /// Out of the game (an event after its action, R5.10).
    Removed,
}

impl Dest {
    /// Reads a destination from "discard" or "removed" (also "remove"),
    /// ignoring case; `None` for anything else.
    pub fn parse(s: &str) -> Option<Dest> {
        match s.to_ascii_lowercase().as_str() {
            "discard" => Some(Dest::Discard),
            "removed" | "remove" => Some(Dest::Removed),
            _ => None,
        }
    }
}

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub u8);

        impl $name {
            /// The id as an index into its list.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A player card: index into `Rules::cards`.
    CardId
);
id_type!(
    /// A physical evidence token: index into `Rules::evidence`.
    TokenId
);
id_type!(
    /// A space of the evidence board: index into `Board::spaces`.
    SpaceId
);
id_type!(
    /// A picture tile (informant): index into `Rules::informants`.
    PictureId
);

/// A set of board spaces as bits, one per `SpaceId` (a `u8`, so 256 bits
/// hold any board): the engine's occupied and matching spaces without a
/// heap allocation. Iterates in ascending space order, the order the
/// engine lists spaces in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpaceSet([u64; 4]);

impl SpaceSet {
    /// No space.
    pub const EMPTY: SpaceSet = SpaceSet([0; 4]);

    /// Adds space `s`.
    #[inline]
    pub fn insert(&mut self, s: SpaceId) {
        self.0[s.index() >> 6] |= 1 << (s.index() & 63);
    }

    /// Takes space `s` out.
    #[inline]
    pub fn remove(&mut self, s: SpaceId) {
        self.0[s.index() >> 6] &= !(1 << (s.index() & 63));
    }

    /// Whether the set holds space `s`.
    #[inline]
    pub fn contains(&self, s: SpaceId) -> bool {
        self.0[s.index() >> 6] & (1 << (s.index() & 63)) != 0
    }

    /// Whether the set holds no space.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// How many spaces the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The spaces in `self` or in `other`.
    #[inline]
    pub fn union(self, other: SpaceSet) -> SpaceSet {
        let mut out = self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w |= o;
        }
        out
    }

    /// The spaces in both `self` and `other`.
    #[inline]
    pub fn intersection(self, other: SpaceSet) -> SpaceSet {
        let mut out = self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= o;
        }
        out
    }

    /// The spaces in `self` and not in `other`.
    #[inline]
    pub fn minus(self, other: SpaceSet) -> SpaceSet {
        let mut out = self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= !o;
        }
        out
    }

    /// Calls `f` with each space in ascending order: a plain loop over the
    /// words, for a caller that writes each space out (no iterator state
    /// to carry from one space to the next).
    #[inline]
    pub fn for_each(self, mut f: impl FnMut(SpaceId)) {
        for (w, word) in self.0.into_iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                f(SpaceId((w * 64 + bits.trailing_zeros() as usize) as u8));
                bits &= bits - 1;
            }
        }
    }

    /// The spaces 0 to 63, as the bits of a word.
    #[inline]
    pub fn first_word(&self) -> u64 {
        self.0[0]
    }

    /// The set of the spaces 0 to 63 whose bits `word` sets.
    #[inline]
    pub fn from_first_word(word: u64) -> SpaceSet {
        SpaceSet([word, 0, 0, 0])
    }

    /// The `k`-th space in ascending order, from 0; `None` past the last.
    #[inline]
    pub fn nth(&self, k: usize) -> Option<SpaceId> {
        let mut k = k;
        for (w, word) in self.0.into_iter().enumerate() {
            let n = word.count_ones() as usize;
            if k < n {
                let mut bits = word;
                for _ in 0..k {
                    bits &= bits - 1;
                }
                return Some(SpaceId((w * 64 + bits.trailing_zeros() as usize) as u8));
            }
            k -= n;
        }
        None
    }

    /// The spaces in ascending order.
    #[inline]
    pub fn iter(self) -> SpaceSetIter {
        let [first, rest @ ..] = self.0;
        SpaceSetIter {
            bits: first,
            base: 0,
            rest,
        }
    }
}

/// The spaces of a [`SpaceSet`] in ascending order: lowest set bit first,
/// word by word (a plain loop where a flattened iterator cost several
/// times as much per space in the connection walk). The word in hand and
/// the words after it are moved along, never indexed, so the iterator
/// lives in registers (indexed, its words sat in memory and every step
/// stored and reloaded one).
#[derive(Clone, Debug)]
pub struct SpaceSetIter {
    /// The spaces left in the word in hand, as bits.
    bits: u64,
    /// The number of the word in hand.
    base: u8,
    /// The words after it.
    rest: [u64; 3],
}

impl Iterator for SpaceSetIter {
    type Item = SpaceId;

    #[inline]
    fn next(&mut self) -> Option<SpaceId> {
        while self.bits == 0 {
            if self.rest == [0; 3] {
                return None;
            }
            let [a, b, c] = self.rest;
            self.bits = a;
            self.rest = [b, c, 0];
            self.base += 1;
        }
        let i = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(SpaceId((self.base as usize * 64 + i) as u8))
    }

    /// Exact: a list extended with the spaces makes room for them once.
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize
            + self
                .rest
                .iter()
                .map(|w| w.count_ones() as usize)
                .sum::<usize>();
        (n, Some(n))
    }
}

impl ExactSizeIterator for SpaceSetIter {}

/// How a game was won (R8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum WinCause {
    /// R8.1: the last momentum token needed was placed on Nixon's card.
    Momentum,
    /// R8.2: no momentum token was left for step R7.4.
    EmptySupply,
    /// R8.3: enough face-up informants are connected to Nixon.
    Connected,
}

impl WinCause {
    /// The three causes, in the order of R8.1, R8.2, R8.3.
    pub const ALL: [WinCause; 3] = [
        WinCause::Momentum,
        WinCause::EmptySupply,
        WinCause::Connected,
    ];

    /// The cause's key in files and reports: "momentum", "empty_supply" or
    /// "connected".
    pub fn key(self) -> &'static str {
        match self {
            WinCause::Momentum => "momentum",
            WinCause::EmptySupply => "empty_supply",
            WinCause::Connected => "connected",
        }
    }

    /// The cause in words, for a reader: "Nixon filled his momentum card", …
    pub fn describe(self) -> &'static str {
        match self {
            WinCause::Momentum => "Nixon filled his momentum card",
            WinCause::EmptySupply => "the momentum supply ran out",
            WinCause::Connected => "informants connected to Nixon",
        }
    }
}

/// The end of a game: who won and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The side that won.
    pub winner: Side,
    /// The winning condition that ended the game.
    pub cause: WinCause,
}

/// One value per side, indexed by [`Side`] (`hands[side]`), for the state,
/// a setup, the rules and the file formats alike. Laid out as the pair
/// array it replaced (`repr(C)`, Editor first) and hashed like it, so
/// position keys are unchanged. In files it is written
/// `PerSide(editor: …, nixon: …)`, the scenario format's name for it, a
/// side left out taking its default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "PerSide")]
#[repr(C)]
pub struct BySide<T> {
    /// The Editor's value.
    #[serde(default)]
    pub editor: T,
    /// Nixon's value.
    #[serde(default)]
    pub nixon: T,
}

impl<T> BySide<T> {
    /// The pair of the Editor's value and Nixon's.
    pub const fn new(editor: T, nixon: T) -> BySide<T> {
        BySide { editor, nixon }
    }

    /// The value of each side, computed from the side.
    pub fn from_fn(mut f: impl FnMut(Side) -> T) -> BySide<T> {
        BySide {
            editor: f(Side::Editor),
            nixon: f(Side::Nixon),
        }
    }

    /// The value of `side` (as `self[side]`).
    #[inline]
    pub fn get(&self, side: Side) -> &T {
        &self[side]
    }

    /// The Editor's value, then Nixon's.
    pub fn iter(&self) -> std::array::IntoIter<&T, 2> {
        [&self.editor, &self.nixon].into_iter()
    }

    /// The Editor's value, then Nixon's, to change them.
    pub fn iter_mut(&mut self) -> std::array::IntoIter<&mut T, 2> {
        [&mut self.editor, &mut self.nixon].into_iter()
    }

    /// Each side's value turned into another by `f`, the Editor's first.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> BySide<U> {
        BySide {
            editor: f(self.editor),
            nixon: f(self.nixon),
        }
    }
}

// A side's value is found by its place, an address computed from the
// side, rather than by a branch on the side: the engine asks for the hand,
// deck or pile of the side on turn at every step, and the processor
// guessed that branch wrong often enough to count (about 3 % of a random
// game's mispredicted branches, issue 38). `repr(C)` lays the pair out as
// an array of two `T`s, the Editor's first (`Side::index` is 0 or 1).

impl<T> std::ops::Index<Side> for BySide<T> {
    type Output = T;
    #[inline]
    fn index(&self, side: Side) -> &T {
        // SAFETY: `BySide<T>` is `repr(C)` with two fields of type `T`, the
        // layout of `[T; 2]`; `side.index()` is 0 or 1.
        unsafe { &*(self as *const BySide<T>).cast::<T>().add(side.index()) }
    }
}

impl<T> std::ops::IndexMut<Side> for BySide<T> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut T {
        // SAFETY: as in `index`, and `&mut self` borrows the pair uniquely.
        unsafe { &mut *(self as *mut BySide<T>).cast::<T>().add(side.index()) }
    }
}

impl<'a, T> IntoIterator for &'a BySide<T> {
    type Item = &'a T;
    type IntoIter = std::array::IntoIter<&'a T, 2>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut BySide<T> {
    type Item = &'a mut T;
    type IntoIter = std::array::IntoIter<&'a mut T, 2>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Hashed as the array `[editor, nixon]` it replaced (length, then the
/// values), so `State::position_key` gives the same keys as before.
impl<T: std::hash::Hash + Clone> std::hash::Hash for BySide<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        [self.editor.clone(), self.nixon.clone()].hash(h)
    }
}

/// Which decisions a puzzle's (or the solver's) depth counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DepthCounts {
    /// Every decision: the side's, the opponent's and chance's.
    #[default]
    Every,
    /// Only the side's own decisions; the opponent's and chance's in
    /// between are free (the round still ends the search).
    Own,
}

impl DepthCounts {
    /// Whether every decision counts (the default, left out of a file).
    pub fn is_every(&self) -> bool {
        *self == DepthCounts::Every
    }

    /// "decisions" or "own decisions", after a number, for a reader.
    pub fn unit(self) -> &'static str {
        match self {
            DepthCounts::Every => "decisions",
            DepthCounts::Own => "own decisions",
        }
    }

    /// `n` decisions as a reader counts them: "1 decision", "4 own decisions".
    pub fn count(self, n: u32) -> String {
        let unit = self.unit();
        if n == 1 {
            format!("1 {}", unit.trim_end_matches('s'))
        } else {
            format!("{n} {unit}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// "within 1 decision", "1 own decision": one is singular.
    #[test]
    fn a_depth_is_counted_in_words() {
        assert_eq!(DepthCounts::Every.count(1), "1 decision");
        assert_eq!(DepthCounts::Own.count(1), "1 own decision");
        assert_eq!(DepthCounts::Own.count(4), "4 own decisions");
        assert_eq!(DepthCounts::Every.count(0), "0 decisions");
    }

    /// A set lists its spaces in ascending order, across all four words,
    /// and knows how many are left at every step.
    #[test]
    fn a_space_set_lists_its_spaces_in_order_across_its_words() {
        let cases: [&[u8]; 6] = [
            &[],
            &[0],
            &[255],
            &[200, 130],
            &[0, 5, 63, 64, 127, 128, 191, 192, 255],
            &[64, 65, 66],
        ];
        for case in cases {
            let mut set = SpaceSet::EMPTY;
            for &s in case {
                set.insert(SpaceId(s));
            }
            let mut want: Vec<u8> = case.to_vec();
            want.sort();
            let mut iter = set.iter();
            let mut got = Vec::new();
            loop {
                assert_eq!(
                    iter.size_hint(),
                    (want.len() - got.len(), Some(want.len() - got.len()))
                );
                match iter.next() {
                    Some(s) => got.push(s.0),
                    None => break,
                }
            }
            assert_eq!(got, want, "{case:?}");
            assert_eq!(set.len(), want.len());
            // `for_each` visits the same spaces in the same order.
            let mut each = Vec::new();
            set.for_each(|s| each.push(s.0));
            assert_eq!(each, want, "for_each {case:?}");
        }
    }
}
