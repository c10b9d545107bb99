//! The program's output into the journal, taken at each publish from the
//! output buffer that every way of reading it (adapter events, the
//! adapter's own pipes, the program's terminal) fills, so that it comes
//! before the stop or the end it led to.

use super::Engine;
use crate::session::output::Stream;
use crate::sync::Locked;

/// Read from the buffer per publish; the rest waits for the next.
const READ_BYTES: usize = 64 * 1024;

impl Engine {
    pub(super) fn journal_output(&mut self) {
        let Some(j) = &self.journal else {
            return;
        };
        let out = self.output.locked();
        let (pieces, next) = out.pieces(self.journal_output_at, READ_BYTES);
        for p in pieces {
            match p.stream {
                Stream::Stdout => j.output("stdout", p.text),
                Stream::Stderr => j.output("stderr", p.text),
                Stream::Console | Stream::Build => {}
            }
        }
        drop(out);
        self.journal_output_at = next;
    }
}
