//! A bounded table of things a page works on over several requests (puzzle
//! attempts, lab runs): random ids, forgotten when idle, never more than a
//! set number at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

struct Entry<T> {
    item: Arc<T>,
    used: Instant,
}

pub struct Store<T> {
    max: usize,
    idle: Duration,
    table: Mutex<HashMap<String, Entry<T>>>,
}

/// An unguessable id (128 bits from the operating system, in hex).
pub fn random_id() -> String {
    let mut b = [0u8; 16];
    // Without an OS source of randomness no id can be trusted: refuse to
    // hand out a predictable one.
    getrandom::fill(&mut b).expect("the operating system's random source failed");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

impl<T> Store<T> {
    pub fn new(max: usize, idle: Duration) -> Store<T> {
        Store {
            max,
            idle,
            table: Mutex::new(HashMap::new()),
        }
    }

    fn table(&self) -> MutexGuard<'_, HashMap<String, Entry<T>>> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores `item` under a new id, unless the table is full (after the
    /// idle entries are forgotten): then `Err(max)`.
    pub fn insert(&self, item: T) -> Result<(String, Arc<T>), usize> {
        let now = Instant::now();
        let mut t = self.table();
        let idle = self.idle;
        t.retain(|_, e| now.saturating_duration_since(e.used) < idle);
        if t.len() >= self.max {
            return Err(self.max);
        }
        let id = random_id();
        let item = Arc::new(item);
        t.insert(
            id.clone(),
            Entry {
                item: Arc::clone(&item),
                used: now,
            },
        );
        Ok((id, item))
    }

    /// The entry `id`, marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<T>> {
        let mut t = self.table();
        let e = t.get_mut(id)?;
        e.used = Instant::now();
        Some(Arc::clone(&e.item))
    }

    /// Forgets entry `id` (a page done with it); whether there was one.
    pub fn remove(&self, id: &str) -> bool {
        self.table().remove(id).is_some()
    }

    pub fn len(&self) -> usize {
        self.table().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_bounded_and_forgets_idle_entries() {
        let s = Store::new(2, Duration::from_millis(50));
        let (a, _) = s.insert(1).unwrap();
        s.insert(2).unwrap();
        assert_eq!(s.insert(3).unwrap_err(), 2);
        assert_eq!(*s.get(&a).unwrap(), 1);
        std::thread::sleep(Duration::from_millis(80));
        let (c, _) = s.insert(3).unwrap();
        assert!(s.get(&a).is_none());
        assert_eq!(s.len(), 1);
        assert_eq!(c.len(), 32);
        assert_ne!(random_id(), random_id());
        // An entry a page is done with makes room at once.
        let (d, _) = s.insert(4).unwrap();
        assert_eq!(s.insert(5).unwrap_err(), 2);
        assert!(s.remove(&d) && !s.remove(&d));
        s.insert(5).unwrap();
    }
}
