//! Locals whose children missed the read deadline when read for a preview.
//!
//! Reading them again at the next stop costs as long once more, and some
//! adapters (debugpy) answer a slow read by resuming every thread and
//! announcing the same stop again, which would read them yet again: a
//! slow value would keep the program from ever settling. So a local whose
//! preview was slow in a function is not read for a preview there again;
//! it says so, and opening it still reads it.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
pub struct SlowPreviews(Arc<Mutex<HashSet<(String, String)>>>);

impl SlowPreviews {
    pub fn mark(&self, function: &str, name: &str) {
        if let Ok(mut set) = self.0.lock() {
            set.insert((function.to_string(), name.to_string()));
        }
    }

    pub fn is_slow(&self, function: &str, name: &str) -> bool {
        self.0
            .lock()
            .is_ok_and(|set| set.contains(&(function.to_string(), name.to_string())))
    }
}

/// What such a local shows instead of its preview.
pub fn skipped_reason() -> String {
    "its preview was slow at an earlier stop; open it to read it".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slow_local_is_remembered_per_function() {
        let slow = SlowPreviews::default();
        slow.mark("main", "box");
        assert!(slow.is_slow("main", "box"));
        assert!(!slow.is_slow("other", "box"));
        assert!(!slow.is_slow("main", "n"));
    }
}
