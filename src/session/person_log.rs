//! The person's actions over the whole session, for the agent's action
//! log: the snapshot's change ring keeps only the last few changes of
//! anyone, which a long session outruns.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use super::types::Change;

/// Actions kept; older ones are dropped and counted.
pub const PERSON_ACTIONS_KEPT: usize = 500;

#[derive(Debug, Default)]
pub struct PersonLog {
    actions: VecDeque<Change>,
    dropped: u64,
}

pub type SharedPersonLog = Arc<Mutex<PersonLog>>;

impl PersonLog {
    pub fn push(&mut self, change: Change) {
        self.actions.push_back(change);
        while self.actions.len() > PERSON_ACTIONS_KEPT {
            self.actions.pop_front();
            self.dropped += 1;
        }
    }

    /// The kept actions, oldest first, and how many older ones were dropped.
    pub fn read(&self) -> (Vec<Change>, u64) {
        (self.actions.iter().cloned().collect(), self.dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_and_counts_the_rest() {
        let mut log = PersonLog::default();
        for epoch in 0..(PERSON_ACTIONS_KEPT as u64 + 3) {
            log.push(Change {
                epoch,
                origin: None,
                what: String::new(),
            });
        }
        let (kept, dropped) = log.read();
        assert_eq!((kept.len(), dropped), (PERSON_ACTIONS_KEPT, 3));
        assert_eq!(kept[0].epoch, 3);
    }
}
