//! A stop on entry placed by the engine (`Quirks::entry_function`): the
//! function breakpoint stands until the first stop, which is then reported
//! as the entry when it was that breakpoint's.

use super::Engine;

impl Engine {
    /// At a stop: drops the entry breakpoint if one was set, and says
    /// whether this stop is the entry.
    pub(super) fn left_entry(&mut self, hit_ids: &[i64]) -> bool {
        if self.conn.entered {
            return false;
        }
        self.conn.entered = true;
        let Some(entry) = self.conn.entry_breakpoint.take() else {
            return false;
        };
        self.sync_functions(None);
        hit_ids.contains(&entry)
    }
}
