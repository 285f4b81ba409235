//! A list of plain values held inline up to `N` items with a one-byte
//! length: the state's lists (hands, decks, piles, the bag, the track…).
//!
//! Why not `smallvec::SmallVec`: its inline form pays a `usize` capacity
//! word (8 bytes, and the alignment of 8 that comes with it) for every
//! list, about 100 bytes of the state's 720; the state has a dozen lists
//! and each inline byte is copied at every clone of a search. No crate at
//! hand has a one-byte length with a heap fallback (`arrayvec` has no
//! fallback, `tinyvec`'s inline form has a `u16` length and its enum is
//! `Vec`-sized and aligned). So this list is written here, for `Copy`
//! items only (nothing to drop but the heap copy, nothing to clone but
//! bytes), with its one piece of unsafe code kept to the few methods below.
//!
//! An unusual game (more cards, longer lists than the shipped one holds)
//! still works: a list that outgrows `N` moves to the heap (a boxed `Vec`
//! whose pointer is kept, unaligned, in the first bytes of the inline
//! room) and plays the same.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::mem::{size_of, MaybeUninit};
use std::ptr;

/// The length byte of a list on the heap.
const SPILLED: u8 = u8::MAX;

/// A list of `Copy` items, inline up to `N` (`N` < 255, and room enough
/// for a pointer), on the heap beyond.
#[repr(C)]
pub struct InlineList<T: Copy, const N: usize> {
    /// The number of items held inline (`0..=N`), or `SPILLED`.
    len: u8,
    /// Inline: the items, the first `len` of them initialized. On the
    /// heap: the first bytes hold a `*mut Vec<T>` from `Box::into_raw`,
    /// written unaligned.
    items: [MaybeUninit<T>; N],
}

impl<T: Copy, const N: usize> InlineList<T, N> {
    /// Checked at compile time by every list type in use (`new` names it).
    const FITS: () = assert!(
        N < SPILLED as usize && N * size_of::<T>() >= size_of::<*mut Vec<T>>(),
        "an InlineList holds fewer than 255 items inline and room for a pointer"
    );

    /// An empty list.
    pub const fn new() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::FITS;
        InlineList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; N],
        }
    }

    /// A list of `items` (inline if they fit).
    pub fn from_slice(items: &[T]) -> Self {
        let mut l = Self::new();
        l.extend_from_slice(items);
        l
    }

    /// Whether the list moved to the heap.
    #[inline]
    pub fn spilled(&self) -> bool {
        self.len == SPILLED
    }

    /// How many items the list holds without growing.
    pub fn capacity(&self) -> usize {
        if self.spilled() {
            self.heap().capacity()
        } else {
            N
        }
    }

    #[inline]
    fn heap_ptr(&self) -> *mut Vec<T> {
        debug_assert!(self.spilled());
        // SAFETY: a spilled list wrote this pointer there (`spill`); the
        // room is at least a pointer's size (`FITS`), read unaligned.
        unsafe { ptr::read_unaligned(self.items.as_ptr() as *const *mut Vec<T>) }
    }

    /// The heap form (the list must be spilled). Inlined: a call here
    /// would make every user of a list a non-leaf function (register saves
    /// at each entry cost more than the check).
    #[inline]
    fn heap(&self) -> &Vec<T> {
        // SAFETY: the pointer is a live box this list owns.
        unsafe { &*self.heap_ptr() }
    }

    #[inline]
    fn heap_mut(&mut self) -> &mut Vec<T> {
        // SAFETY: as in `heap`, and `&mut self` borrows the box uniquely.
        unsafe { &mut *self.heap_ptr() }
    }

    /// Moves the items to the heap, with room for `extra` more.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, extra: usize) -> &mut Vec<T> {
        let mut v = Vec::with_capacity((self.len() + extra).max(2 * N));
        v.extend_from_slice(self.as_slice());
        let p = Box::into_raw(Box::new(v));
        // SAFETY: the inline items were copied out (they are `Copy`); the
        // room holds a pointer (`FITS`), written unaligned.
        unsafe { ptr::write_unaligned(self.items.as_mut_ptr() as *mut *mut Vec<T>, p) };
        self.len = SPILLED;
        // SAFETY: just made, owned by this list.
        unsafe { &mut *p }
    }

    /// The items, in order.
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        if self.spilled() {
            return self.heap();
        }
        // SAFETY: the first `len` inline items are initialized.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const T, self.len as usize) }
    }

    /// The items, in order, to change them.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        if self.spilled() {
            return self.heap_mut();
        }
        // SAFETY: the first `len` inline items are initialized.
        unsafe {
            std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut T, self.len as usize)
        }
    }

    /// Adds `item` at the end (moving the list to the heap when the inline
    /// room is full).
    #[inline]
    pub fn push(&mut self, item: T) {
        let len = self.len as usize;
        if len < N {
            self.items[len] = MaybeUninit::new(item);
            self.len += 1;
        } else {
            self.push_slow(item);
        }
    }

    /// `push` past the inline room: out of line, so the inlined part stays
    /// small (a list used inline keeps its callers' inlining as it was).
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, item: T) {
        if self.spilled() {
            self.heap_mut().push(item);
        } else {
            self.spill(1).push(item);
        }
    }

    /// Takes the last item off; `None` when the list is empty.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        if self.spilled() {
            return self.heap_mut().pop();
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: item `len` (the old last) was initialized.
        Some(unsafe { self.items[self.len as usize].assume_init() })
    }

    /// Inserts `item` at `index` (≤ the length), shifting the rest up.
    pub fn insert(&mut self, index: usize, item: T) {
        let len = self.len as usize;
        if len < N {
            assert!(index <= len, "insert index out of range");
            // SAFETY: items `index..len` are initialized and move one up,
            // within the room (`len < N`); then `index` is written.
            unsafe {
                let p = self.items.as_mut_ptr().add(index);
                ptr::copy(p, p.add(1), len - index);
            }
            self.items[index] = MaybeUninit::new(item);
            self.len += 1;
        } else {
            self.insert_slow(index, item);
        }
    }

    #[cold]
    #[inline(never)]
    fn insert_slow(&mut self, index: usize, item: T) {
        if self.spilled() {
            self.heap_mut().insert(index, item);
        } else {
            self.spill(1).insert(index, item);
        }
    }

    /// Removes the item at `index` (< the length), shifting the rest down.
    pub fn remove(&mut self, index: usize) -> T {
        if self.spilled() {
            return self.remove_slow(index);
        }
        let s = self.as_mut_slice();
        let item = s[index];
        // Item by item: the lists are short (a hand, the track), and
        // `copy_within` called `memmove` for a few bytes (the call cost
        // more than the copy: 2 % of a value-plays-only game, issue 38).
        for i in index + 1..s.len() {
            s[i - 1] = s[i];
        }
        self.len -= 1;
        item
    }

    #[cold]
    #[inline(never)]
    fn remove_slow(&mut self, index: usize) -> T {
        self.heap_mut().remove(index)
    }

    /// Keeps the first `len` items (a list on the heap stays there).
    pub fn truncate(&mut self, len: usize) {
        if self.spilled() {
            self.heap_mut().truncate(len);
        } else if len < self.len as usize {
            self.len = len as u8;
        }
    }

    /// Removes every item (a list on the heap stays there).
    pub fn clear(&mut self) {
        self.truncate(0)
    }

    /// Keeps the items `keep` says yes to, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&T) -> bool) {
        let s = self.as_mut_slice();
        let mut kept = 0;
        for i in 0..s.len() {
            if keep(&s[i]) {
                s[kept] = s[i];
                kept += 1;
            }
        }
        self.truncate(kept);
    }

    /// Adds `items` at the end, in their order.
    pub fn extend_from_slice(&mut self, items: &[T]) {
        let len = self.len as usize;
        if len + items.len() <= N {
            for (slot, item) in self.items[len..].iter_mut().zip(items) {
                *slot = MaybeUninit::new(*item);
            }
            self.len += items.len() as u8;
        } else {
            self.extend_slow(items);
        }
    }

    #[cold]
    #[inline(never)]
    fn extend_slow(&mut self, items: &[T]) {
        if self.spilled() {
            self.heap_mut().extend_from_slice(items);
        } else {
            self.spill(items.len()).extend_from_slice(items);
        }
    }
}

impl<T: Copy, const N: usize> Drop for InlineList<T, N> {
    fn drop(&mut self) {
        if self.spilled() {
            // SAFETY: the box this list owns, dropped once.
            drop(unsafe { Box::from_raw(self.heap_ptr()) });
        }
    }
}

impl<T: Copy, const N: usize> Clone for InlineList<T, N> {
    #[inline]
    fn clone(&self) -> Self {
        if self.spilled() {
            Self::from_slice(self.as_slice())
        } else {
            // SAFETY: an inline list is plain bytes (`Copy` items, no
            // pointer): a copy of them is a list of its own.
            unsafe { ptr::read(self) }
        }
    }
}

impl<T: Copy, const N: usize> Default for InlineList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for InlineList<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy, const N: usize> std::ops::DerefMut for InlineList<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy, const N: usize> Extend<T> for InlineList<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for InlineList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut l = Self::new();
        l.extend(iter);
        l
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a InlineList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for InlineList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Eq, const N: usize> Eq for InlineList<T, N> {}

/// Hashed as its slice, as `SmallVec` was (position keys stay the same).
impl<T: Copy + std::hash::Hash, const N: usize> std::hash::Hash for InlineList<T, N> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h)
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for InlineList<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

/// Written as a sequence, as a `Vec` or `SmallVec` is: saved positions read the same.
impl<T: Copy + Serialize, const N: usize> Serialize for InlineList<T, N> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

impl<'de, T: Copy + Deserialize<'de>, const N: usize> Deserialize<'de> for InlineList<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Through a Vec: only saved positions are read this way, never a step.
        Ok(Self::from_slice(&Vec::<T>::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type L = InlineList<u8, 8>;

    /// Every operation, on a list that stays inline and on one that moved
    /// to the heap, agrees with a `Vec` doing the same.
    #[test]
    fn a_list_does_what_a_vec_does_inline_and_on_the_heap() {
        for extra in [0u8, 5, 40] {
            let mut l = L::new();
            let mut v: Vec<u8> = Vec::new();
            for i in 0..(6 + extra) {
                l.push(i);
                v.push(i);
            }
            assert_eq!(l.spilled(), v.len() > 8);
            l.insert(2, 100);
            v.insert(2, 100);
            l.insert(l.len(), 101);
            v.insert(v.len(), 101);
            assert_eq!(l.remove(0), v.remove(0));
            assert_eq!(l.pop(), v.pop());
            l.retain(|x| x % 3 != 0);
            v.retain(|x| x % 3 != 0);
            l.extend_from_slice(&[7, 8, 9]);
            v.extend_from_slice(&[7, 8, 9]);
            l.as_mut_slice().reverse();
            v.reverse();
            assert_eq!(l.as_slice(), v.as_slice());
            let c = l.clone();
            assert_eq!(c, l);
            assert_eq!(format!("{c:?}"), format!("{v:?}"));
            l.truncate(3);
            v.truncate(3);
            assert_eq!(&*l, v.as_slice());
            l.clear();
            assert!(l.is_empty() && l.pop().is_none());
            assert_eq!(c.len(), c.iter().count());
        }
    }

    #[test]
    fn a_list_spills_past_its_inline_room_and_clones_back_inline_when_it_fits() {
        let mut l: L = (0..8).collect();
        assert!(!l.spilled() && l.capacity() == 8);
        l.push(8);
        assert!(l.spilled() && l.capacity() >= 16);
        assert_eq!(l.as_slice(), (0..9).collect::<Vec<_>>().as_slice());
        l.pop();
        let c = l.clone();
        assert!(!c.spilled());
        assert_eq!(c, l);
    }

    /// Extending fills the inline room and pushes the rest to the heap,
    /// from an empty list, a part-filled one and a spilled one, with as
    /// many items as fit, one more, and none.
    #[test]
    fn extending_a_list_keeps_every_item_in_order_across_its_inline_room() {
        for start in [0u8, 3, 8, 12] {
            for more in [0u8, 1, 5, 8 - start.min(8), 9 - start.min(8), 20] {
                let mut l: L = (0..start).collect();
                let mut v: Vec<u8> = (0..start).collect();
                l.extend(100..100 + more);
                v.extend(100..100 + more);
                assert_eq!(l.as_slice(), v.as_slice(), "start {start}, {more} more");
                assert_eq!(l.spilled(), v.len() > 8, "start {start}, {more} more");
                l.push(7);
                v.push(7);
                assert_eq!(l.as_slice(), v.as_slice());
            }
        }
    }

    #[test]
    fn a_list_is_written_and_read_as_a_plain_sequence() {
        let l: L = (0..12).collect();
        let text = ron::to_string(&l).unwrap();
        assert_eq!(text, ron::to_string(&(0..12).collect::<Vec<u8>>()).unwrap());
        let back: L = ron::from_str(&text).unwrap();
        assert_eq!(back, l);
    }

    #[test]
    fn a_list_of_bytes_costs_its_items_and_one_byte() {
        assert_eq!(size_of::<InlineList<u8, 24>>(), 25);
        assert_eq!(std::mem::align_of::<InlineList<u8, 24>>(), 1);
    }
}
