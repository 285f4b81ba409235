//! The engine's stack of frames, its top frame held apart from the rest.
//!
//! Why apart: the engine reads the top frame several times at every step
//! (what to do next, which options to list, which choice to take) and the
//! frames below it seldom. In one list, every read of the top asked
//! whether the list had moved to the heap and where its last item was; a
//! random game spent about a tenth of its instructions on that (issue
//! 16's profile). Held apart, the top is a field at a fixed place.
//!
//! The frames below are a small vector with six inline, so the stack
//! holds seven frames inline in all, as before (what the shipped game
//! nests, see `State::stack`); deeper nesting spills to the heap and
//! plays the same. Invariant: when there is no top frame, there are no
//! frames below either.

use crate::game::state::Frame;
use serde::{Serialize, Serializer};
use smallvec::SmallVec;

/// The engine's work in progress ([`Frame`]s), innermost last: the top
/// frame says what happens next. Read as a list through [`FrameStack::get`]
/// and [`FrameStack::iter`] (index 0 the outermost).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameStack {
    /// The innermost frame, `None` when the stack is empty.
    top: Option<Frame>,
    /// The frames under the top, outermost first.
    below: SmallVec<[Frame; 6]>,
}

impl FrameStack {
    /// The innermost frame.
    #[inline(always)]
    pub fn last(&self) -> Option<&Frame> {
        self.top.as_ref()
    }

    /// The innermost frame, to change it.
    #[inline(always)]
    pub fn last_mut(&mut self) -> Option<&mut Frame> {
        self.top.as_mut()
    }

    /// Whether there is no frame: the engine has no work in progress.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.top.is_none()
    }

    /// How many frames there are.
    #[inline]
    pub fn len(&self) -> usize {
        self.below.len() + usize::from(self.top.is_some())
    }

    /// The frame at `index`, counting from the outermost (0).
    #[inline]
    pub fn get(&self, index: usize) -> Option<&Frame> {
        let below = self.below.len();
        if index == below {
            self.top.as_ref()
        } else {
            self.below.get(index)
        }
    }

    /// The frame at `index`, counting from the outermost (0), to change it.
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<&mut Frame> {
        let below = self.below.len();
        if index == below {
            self.top.as_mut()
        } else {
            self.below.get_mut(index)
        }
    }

    /// Puts the frame `make` builds on top. It is built in the top's place
    /// once the old top has moved down, so its fields are written where
    /// they stay (built first and moved after, its wider copy read back
    /// fields just written, which the processor cannot forward from its
    /// pending stores: BENCHMARKS.md, session 7).
    #[inline(always)]
    pub fn push_with(&mut self, make: impl FnOnce() -> Frame) {
        if let Some(old) = self.top.take() {
            self.push_below(old);
        }
        // The top is empty here, so nothing is dropped: written with no
        // look at what was there (an assignment tests the old value for
        // a program to release or a list to free).
        debug_assert!(self.top.is_none());
        // SAFETY: `&mut self.top` is valid for writes, and the `None` it
        // holds owns nothing, so overwriting it leaks nothing.
        unsafe { std::ptr::write(&mut self.top, Some(make())) };
    }

    /// Puts two frames on: `under`, then `top` above it, each built where
    /// it stays. Pushed one after the other, `under` would be built on
    /// top and at once moved down by the second push: read back whole
    /// just after its fields were written, the stall `push_with` avoids
    /// (issue 38).
    #[inline(always)]
    pub fn push_two_with(&mut self, under: impl FnOnce() -> Frame, top: impl FnOnce() -> Frame) {
        if let Some(old) = self.top.take() {
            self.push_below(old);
        }
        // Room first, then `under` written at its place: pushed as a value,
        // it was built on the processor's stack and copied there.
        if self.below.len() == self.below.capacity() {
            self.grow_below();
        }
        let len = self.below.len();
        // SAFETY: there is room for one more frame past `len` (made just
        // above); it is written, then counted.
        unsafe {
            std::ptr::write(self.below.as_mut_ptr().add(len), under());
            self.below.set_len(len + 1);
        }
        // SAFETY: as in `push_with`: the top is empty here.
        unsafe { std::ptr::write(&mut self.top, Some(top())) };
    }

    /// Puts `frame` on top.
    pub fn push(&mut self, frame: Frame) {
        self.push_with(|| frame)
    }

    /// Out of line: the push below grows the vector at times, and nothing
    /// built for the new top has to live through that call.
    #[inline(never)]
    fn push_below(&mut self, frame: Frame) {
        self.below.push(frame);
    }

    /// Room for one more frame below the top.
    #[cold]
    #[inline(never)]
    fn grow_below(&mut self) {
        self.below.reserve(1);
    }

    /// Takes the innermost frame off.
    #[inline]
    pub fn pop(&mut self) -> Option<Frame> {
        let top = self.top.take();
        if top.is_some() {
            self.top = self.below.pop();
        }
        top
    }

    /// Takes the innermost frame off and drops it where it lies. `pop`
    /// hands the frame back through memory, and the callers that only
    /// end a frame (most of them) paid for that copy of a frame whose
    /// fields had just been written, a store-forwarding stall (about a
    /// tenth of `advance_to`'s samples at the copy, issue 38).
    ///
    /// The frame below comes up with one copy from its place: assigned
    /// from `pop`, it went through a temporary written in pieces and read
    /// back whole at once, a stall again (issue 38).
    #[inline]
    pub fn drop_top(&mut self) {
        if self.top.is_none() {
            return;
        }
        let below = self.below.len();
        // SAFETY: the old top is dropped where it lies, then overwritten
        // without a second drop (a frame's drop releases a shared program
        // or a spilled list, and does not panic). With a frame below, the
        // length is lowered first: the frame read out of its slot is
        // owned by the top alone.
        unsafe {
            std::ptr::drop_in_place(&mut self.top);
            if below == 0 {
                std::ptr::write(&mut self.top, None);
            } else {
                self.below.set_len(below - 1);
                let up = std::ptr::read(self.below.as_ptr().add(below - 1));
                std::ptr::write(&mut self.top, Some(up));
            }
        }
    }

    /// Every frame, outermost first.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &Frame> + Clone {
        self.below.iter().chain(self.top.iter())
    }

    /// Every frame, outermost first, as a list of their own.
    pub fn to_vec(&self) -> Vec<Frame> {
        self.iter().cloned().collect()
    }

    /// Whether any frame, or the list of them, lives on the heap or holds
    /// something there (a shared program, a spilled list of picked
    /// tokens): then the stack is not plain bytes (`State::clone`).
    #[inline]
    pub fn owns_heap(&self) -> bool {
        self.below.spilled()
            || self.iter().any(|f| match f {
                Frame::Run(r) => r.shared.is_some() || r.picked.spilled(),
                _ => false,
            })
    }

    /// Bytes a clone copies on the heap for the frames themselves (a stack
    /// deeper than its inline room).
    pub fn heap_bytes(&self) -> usize {
        if self.below.spilled() {
            self.below.capacity() * std::mem::size_of::<Frame>()
        } else {
            0
        }
    }
}

impl FromIterator<Frame> for FrameStack {
    fn from_iter<I: IntoIterator<Item = Frame>>(frames: I) -> Self {
        let mut s = FrameStack::default();
        for f in frames {
            s.push(f);
        }
        s
    }
}

impl<'a> IntoIterator for &'a FrameStack {
    type Item = &'a Frame;
    type IntoIter = std::iter::Chain<std::slice::Iter<'a, Frame>, std::option::Iter<'a, Frame>>;
    fn into_iter(self) -> Self::IntoIter {
        self.below.iter().chain(self.top.iter())
    }
}

/// Hashed as the list of frames it holds, like the slice it replaces (so
/// position keys stay).
impl std::hash::Hash for FrameStack {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_usize(self.len());
        for f in self {
            f.hash(h);
        }
    }
}

/// Written as the list of frames, outermost first.
impl Serialize for FrameStack {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::state::EvalStep;
    use std::hash::{Hash, Hasher};

    fn eval(step: EvalStep) -> Frame {
        Frame::Evaluation { step }
    }

    fn hash_of<T: Hash + ?Sized>(x: &T) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    }

    /// Frames deep enough to spill past the inline room come back in the
    /// order they went on, and every index reads the frame put there.
    #[test]
    fn frames_come_off_in_the_reverse_order_they_went_on() {
        let frames: Vec<Frame> = (0..10)
            .map(|i| Frame::Setup {
                dealt: i % 2 == 0,
                cards_dealt: 0,
                evidence_left: i,
            })
            .collect();
        let mut s = FrameStack::default();
        assert!(s.is_empty() && s.last().is_none() && s.get(0).is_none());
        for (n, f) in frames.iter().enumerate() {
            s.push(f.clone());
            assert_eq!(s.len(), n + 1);
            assert_eq!(s.last(), Some(f));
            for (i, g) in frames[..=n].iter().enumerate() {
                assert_eq!(s.get(i), Some(g));
            }
            assert_eq!(s.get(n + 1), None);
            assert_eq!(s.to_vec(), frames[..=n].to_vec());
        }
        assert!(s.heap_bytes() > 0, "ten frames spill");
        for n in (0..frames.len()).rev() {
            assert_eq!(s.pop().as_ref(), Some(&frames[n]));
            assert_eq!(s.len(), n);
        }
        assert_eq!(s.pop(), None);
        assert!(s.is_empty());
    }

    /// `push_two_with` and `drop_top` move frames by hand: every frame
    /// comes off in order, and a program the frames share is released
    /// once each (no frame dropped twice, none leaked), past the inline
    /// room too.
    #[test]
    fn frames_pushed_in_pairs_and_dropped_release_their_programs_once() {
        use crate::game::model::{CardId, Side};
        use crate::game::state::{ProgRef, RunFrame};
        use std::sync::Arc;
        let program = Arc::new(Vec::new());
        let run = |i: u8| {
            Frame::Run(RunFrame::new(
                ProgRef::Dynamic(program.clone()),
                Side::Editor,
                Some(CardId(i)),
                None,
            ))
        };
        let mut s = FrameStack::default();
        let mut expected = Vec::new();
        for i in 0..6u8 {
            let under = eval(EvalStep::Initiative);
            let top = run(i);
            expected.push(under.clone());
            expected.push(top.clone());
            s.push_two_with(|| under, || top);
            assert_eq!(s.to_vec(), expected);
        }
        assert!(s.heap_bytes() > 0, "twelve frames spill");
        assert_eq!(Arc::strong_count(&program), 1 + 6 + 6);
        while let Some(top) = expected.pop() {
            assert_eq!(s.last(), Some(&top));
            drop(top);
            s.drop_top();
            assert_eq!(s.to_vec(), expected);
        }
        s.drop_top();
        assert!(s.is_empty());
        assert_eq!(Arc::strong_count(&program), 1);
    }

    #[test]
    fn a_frame_is_changed_in_place_by_its_index() {
        let mut s: FrameStack = [eval(EvalStep::ZeroToBag), eval(EvalStep::Initiative)]
            .into_iter()
            .collect();
        *s.get_mut(0).unwrap() = eval(EvalStep::Done);
        *s.last_mut().unwrap() = eval(EvalStep::Momentum);
        assert_eq!(
            s.to_vec(),
            vec![eval(EvalStep::Done), eval(EvalStep::Momentum)]
        );
        assert_eq!(s.get_mut(2), None);
    }

    /// Position keys hash the stack: it hashes as the slice it replaced.
    #[test]
    fn it_hashes_and_serializes_as_the_list_of_its_frames() {
        for n in [0, 1, 3, 9] {
            let frames: Vec<Frame> = (0..n).map(|_| eval(EvalStep::HolderPins)).collect();
            let s: FrameStack = frames.iter().cloned().collect();
            assert_eq!(hash_of(&s), hash_of(frames.as_slice()));
            assert_eq!(
                ron::to_string(&s).unwrap(),
                ron::to_string(&frames).unwrap()
            );
        }
    }
}
