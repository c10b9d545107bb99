//! Where each output line starts in the session's buffer, so the output
//! pane reaches every line the buffer holds while reading only the lines on
//! screen; the UI never copies the buffer.

use std::collections::VecDeque;

use super::App;
use crate::session::output::Stream;
use crate::tui::state::ConsoleEntry;

#[derive(Default)]
pub(super) struct OutputIndex {
    /// The absolute offset of each line's first byte, oldest first.
    starts: VecDeque<u64>,
    /// The offset after the last byte read.
    end: u64,
    /// The last byte read was a newline (or nothing was read yet).
    at_line_start: bool,
    /// Bytes the buffer dropped before its oldest line.
    dropped: u64,
    /// The offset after the last byte read of the debugger's console.
    debugger_end: u64,
    /// The debugger's console line not finished yet.
    debugger_partial: String,
}

impl OutputIndex {
    pub(super) fn new() -> Self {
        OutputIndex {
            at_line_start: true,
            ..Default::default()
        }
    }

    fn feed(&mut self, at: u64, text: &str) {
        for (i, b) in text.bytes().enumerate() {
            if self.at_line_start {
                self.starts.push_back(at + i as u64);
            }
            self.at_line_start = b == b'\n';
        }
        self.end = at + text.len() as u64;
    }

    /// Forgets the lines the buffer dropped; a line cut in the middle keeps
    /// the part still held.
    fn trim(&mut self, oldest: u64) {
        self.dropped = oldest;
        let mut cut = false;
        while self.starts.front().is_some_and(|s| *s < oldest) {
            self.starts.pop_front();
            cut = true;
        }
        if cut && self.starts.front() != Some(&oldest) && oldest < self.end {
            self.starts.push_front(oldest);
        }
    }

    /// Lines the pane can show: the buffer's, and the drop mark before them.
    pub(super) fn total(&self) -> usize {
        self.starts.len() + usize::from(self.dropped > 0)
    }
}

/// The first line of a window of `rows` lines that ends `from_end` lines
/// before the last.
pub fn window_first(total: usize, rows: usize, from_end: usize) -> usize {
    total.saturating_sub(from_end).saturating_sub(rows)
}

impl App {
    /// Reads the output that arrived since the last call into the index.
    pub(super) fn read_output(&mut self) {
        loop {
            let (pieces, next) = self.session.read_output_streams(self.output.end, 1 << 20);
            let len: usize = pieces.iter().map(|(_, t)| t.len()).sum();
            let mut at = next - len as u64;
            for (_, text) in &pieces {
                self.output.feed(at, text);
                at += text.len() as u64;
            }
            self.output.end = next;
            if len == 0 || len < 1 << 20 {
                break;
            }
        }
        self.output.trim(self.session.output_start());
        self.read_debugger_console();
    }

    /// The debugger's console lines go to the console pane, line by line.
    fn read_debugger_console(&mut self) {
        let (text, next) = self
            .session
            .read_debugger_console(self.output.debugger_end, 1 << 20);
        self.output.debugger_end = next;
        if text.is_empty() {
            return;
        }
        let partial = &mut self.output.debugger_partial;
        partial.push_str(&text);
        let Some(done) = partial.rfind('\n') else {
            return;
        };
        let rest = partial.split_off(done + 1);
        let lines = std::mem::replace(partial, rest);
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            self.ui.push_console(ConsoleEntry {
                input: None,
                output: Ok(line.trim_end().to_string()),
            });
        }
    }

    /// Fills the lines the output pane shows, for `rows` rows.
    pub(super) fn output_window(&mut self, rows: usize) {
        let idx = &self.output;
        let total = idx.total();
        let max_from_end = total.saturating_sub(rows);
        self.ui.output_scroll_from_end = self.ui.output_scroll_from_end.min(max_from_end);
        let first = window_first(total, rows, self.ui.output_scroll_from_end);
        let last = (first + rows).min(total);
        self.ui.output_total = total;
        self.ui.output_first = first;
        self.ui.output.clear();
        let mark = usize::from(idx.dropped > 0);
        if first < mark {
            let mb = idx.dropped as f64 / (1024.0 * 1024.0);
            self.ui.output.push((
                Stream::Console,
                format!(
                    "… {mb:.1} MB of earlier output dropped (the buffer keeps the last 10 MB)\n"
                ),
            ));
        }
        let (from, to) = (first.max(mark) - mark, last.saturating_sub(mark));
        if from >= to {
            return;
        }
        let start = idx.starts[from];
        let stop = idx.starts.get(to).copied().unwrap_or(idx.end);
        let (pieces, _) = self
            .session
            .read_output_streams(start, (stop - start) as usize);
        for (stream, text) in pieces {
            self.ui.push_output(stream, &text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_found_across_pieces_and_dropped_ones_are_forgotten() {
        let mut i = OutputIndex::new();
        i.feed(0, "a\nbb");
        i.feed(4, "b\ncc\n");
        assert_eq!(i.starts, [0, 2, 6]);
        assert_eq!(i.total(), 3);
        i.trim(3);
        assert_eq!(i.starts, [3, 6], "the cut line keeps its held part");
        assert_eq!(i.total(), 3, "the drop mark counts as a line");
        assert_eq!(window_first(10, 4, 0), 6);
        assert_eq!(window_first(10, 4, 6), 0);
    }
}
