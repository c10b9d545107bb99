//! The program's output, and apart from it the debugger's own console (the
//! adapter's lines about itself): each a ring buffer capped in bytes, read
//! through an absolute cursor so readers never see a byte twice or silently
//! miss one.

use std::collections::VecDeque;

pub const OUTPUT_CAP_BYTES: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stream {
    Stdout,
    Stderr,
    Console,
    /// A build step's output and its progress lines: shown with the
    /// program's, but never read as the program's own.
    Build,
}

impl Stream {
    /// Whether a reader of `speaker` reads this stream.
    fn read_by(self, speaker: Speaker) -> bool {
        match speaker {
            Speaker::Build => self == Stream::Build,
            Speaker::Program | Speaker::Debugger => self != Stream::Build,
        }
    }
}

#[derive(Debug)]
struct Chunk {
    start: u64,
    stream: Stream,
    text: String,
    /// The chunk begins a line of its stream (the stream's last chunk ended
    /// with a newline): only then does a stderr mark go in front of it.
    starts_line: bool,
}

#[derive(Debug)]
pub struct Ring {
    chunks: VecDeque<Chunk>,
    /// Per stream: its last chunk left a line unfinished.
    open_line: [bool; 4],
    bytes: usize,
    cap: usize,
    end: u64,
    /// Where each run of the program begins: a restart starts a new one.
    runs: Vec<u64>,
}

/// Who wrote a line: the program, or the debugger about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    Program,
    Debugger,
    /// The build step before each start, kept in the program's buffer so
    /// its lines show in place, and read apart from the program's.
    Build,
}

/// The program's output and the debugger's console, kept apart so that
/// the program's holds only what the program wrote.
#[derive(Debug)]
pub struct OutputBuffer {
    program: Ring,
    debugger: Ring,
}

impl Default for OutputBuffer {
    fn default() -> Self {
        Self::with_cap(OUTPUT_CAP_BYTES)
    }
}

impl std::ops::Deref for OutputBuffer {
    type Target = Ring;
    fn deref(&self) -> &Ring {
        &self.program
    }
}

impl std::ops::DerefMut for OutputBuffer {
    fn deref_mut(&mut self) -> &mut Ring {
        &mut self.program
    }
}

impl OutputBuffer {
    pub fn with_cap(cap: usize) -> Self {
        OutputBuffer {
            program: Ring::with_cap(cap),
            debugger: Ring::with_cap(cap),
        }
    }

    /// A line the debugger wrote about itself, not the program.
    pub fn push_debugger(&mut self, text: &str) {
        self.debugger.push(Stream::Console, text);
    }

    /// The debugger's console.
    pub fn debugger(&self) -> &Ring {
        &self.debugger
    }

    pub fn of(&self, speaker: Speaker) -> &Ring {
        match speaker {
            Speaker::Program | Speaker::Build => &self.program,
            Speaker::Debugger => &self.debugger,
        }
    }

    /// Reads `speaker`'s output as [`Ring::read_runs`] does.
    pub fn read_runs_of(
        &self,
        speaker: Speaker,
        since: u64,
        until: u64,
        max_bytes: usize,
    ) -> OutputRead {
        self.of(speaker)
            .read_runs_by(speaker, since, until, max_bytes, true)
    }

    /// What comes next in both belongs to a new run of the program.
    pub fn begin_run(&mut self) {
        self.program.begin_run();
        self.debugger.begin_run();
    }
}

/// A run of one stream's output.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece<'a> {
    pub stream: Stream,
    pub text: &'a str,
    /// The piece begins a line of its stream.
    pub at_line_start: bool,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct OutputRead {
    pub text: String,
    /// Pass this as `since` to continue.
    pub next: u64,
    /// Bytes between `since` and the oldest kept byte that were dropped.
    pub dropped: u64,
    pub more: bool,
}

impl Ring {
    pub fn with_cap(cap: usize) -> Self {
        Ring {
            chunks: VecDeque::new(),
            open_line: [false; 4],
            bytes: 0,
            cap,
            end: 0,
            runs: vec![0],
        }
    }

    pub fn push(&mut self, stream: Stream, text: &str) {
        if text.is_empty() {
            return;
        }
        let mut text = text.to_string();
        if text.len() > self.cap {
            let cut = floor_char_boundary(&text, text.len() - self.cap);
            self.end += cut as u64;
            text.drain(..cut);
        }
        self.bytes += text.len();
        let start = self.end;
        self.end += text.len() as u64;
        let idx = stream as usize;
        let starts_line = !self.open_line[idx];
        self.open_line[idx] = !text.ends_with('\n');
        self.chunks.push_back(Chunk {
            start,
            stream,
            text,
            starts_line,
        });
        while self.bytes > self.cap {
            let Some(old) = self.chunks.pop_front() else {
                break;
            };
            self.bytes -= old.text.len();
        }
    }

    pub fn end(&self) -> u64 {
        self.end
    }

    /// What comes next belongs to a new run of the program.
    pub fn begin_run(&mut self) {
        for open in &mut self.open_line {
            *open = false;
        }
        self.runs.push(self.end);
    }

    /// How many runs the buffer has seen, this one included.
    pub fn run_count(&self) -> usize {
        self.runs.len()
    }

    /// The bytes of run `n` (counted from 1): its first and the one after
    /// its last.
    pub fn run_range(&self, n: usize) -> Option<(u64, u64)> {
        let start = *self.runs.get(n.checked_sub(1)?)?;
        let end = self.runs.get(n).copied().unwrap_or(self.end);
        Some((start, end))
    }

    /// The run (counted from 1) that the byte at `pos` belongs to.
    pub fn run_at(&self, pos: u64) -> usize {
        self.runs.partition_point(|s| *s <= pos).max(1)
    }

    pub fn start(&self) -> u64 {
        self.chunks.front().map(|c| c.start).unwrap_or(self.end)
    }

    /// The output from `since`, at most `max_bytes` of it, as pieces that
    /// keep their stream; also the cursor after them.
    pub fn pieces(&self, since: u64, max_bytes: usize) -> (Vec<Piece<'_>>, u64) {
        let mut pos = since.max(self.start());
        let mut out = vec![];
        let mut room = max_bytes;
        for c in &self.chunks {
            let c_end = c.start + c.text.len() as u64;
            if c_end <= pos {
                continue;
            }
            if room == 0 {
                break;
            }
            let off = floor_char_boundary(&c.text, (pos - c.start) as usize);
            let rest = &c.text[off..];
            let take = floor_char_boundary(rest, room.min(rest.len()));
            let at_line_start = if off == 0 {
                c.starts_line
            } else {
                c.text.as_bytes()[off - 1] == b'\n'
            };
            out.push(Piece {
                stream: c.stream,
                text: &rest[..take],
                at_line_start,
            });
            room -= take;
            pos = c.start + (off + take) as u64;
            if take < rest.len() {
                break;
            }
        }
        (out, pos)
    }

    /// Reads from `since` at most `max_bytes` as text, marking stderr lines
    /// when asked.
    pub fn read(&self, since: u64, max_bytes: usize, mark_stderr: bool) -> OutputRead {
        self.read_by(Speaker::Program, since, max_bytes, mark_stderr)
    }

    /// As [`Ring::read`], only the streams `speaker` reads; the cursor
    /// passes over the others.
    pub fn read_by(
        &self,
        speaker: Speaker,
        since: u64,
        max_bytes: usize,
        mark_stderr: bool,
    ) -> OutputRead {
        let dropped = self.start().saturating_sub(since);
        let (pieces, next) = self.pieces(since, max_bytes);
        let mut text = String::new();
        for p in pieces.into_iter().filter(|p| p.stream.read_by(speaker)) {
            if mark_stderr && p.stream == Stream::Stderr {
                text.push_str(&mark_lines(p.text, p.at_line_start));
            } else {
                text.push_str(p.text);
            }
        }
        OutputRead {
            text,
            next,
            dropped,
            more: next < self.end,
        }
    }

    /// Reads from `since` up to `until`, at most `max_bytes` of output. A read
    /// that reaches back before the current run heads each run's part, so
    /// an earlier run's lines are never taken for this run's.
    pub fn read_runs(
        &self,
        since: u64,
        until: u64,
        max_bytes: usize,
        mark_stderr: bool,
    ) -> OutputRead {
        self.read_runs_by(Speaker::Program, since, until, max_bytes, mark_stderr)
    }

    fn read_runs_by(
        &self,
        speaker: Speaker,
        since: u64,
        until: u64,
        max_bytes: usize,
        mark_stderr: bool,
    ) -> OutputRead {
        let dropped = self.start().saturating_sub(since);
        let until = until.min(self.end);
        let mut pos = since.max(self.start()).min(until);
        let runs = self.run_count();
        let first = self.run_at(pos);
        let mut text = String::new();
        let mut room = max_bytes;
        let headed = first < runs;
        for n in first..=runs {
            let Some((start, end)) = self.run_range(n) else {
                break;
            };
            if start >= until && n > first {
                break;
            }
            let to = end.min(until);
            pos = pos.max(start);
            if headed {
                if !text.is_empty() && !text.ends_with('\n') {
                    text.push('\n');
                }
                text.push_str(&run_heading(n, runs));
            }
            if pos < to && room > 0 {
                let want = room.min((to - pos) as usize);
                let r = self.read_by(speaker, pos, want, mark_stderr);
                room -= ((r.next - pos) as usize).min(room);
                text.push_str(&r.text);
                pos = r.next;
            }
            if pos < to {
                break;
            }
        }
        OutputRead {
            text,
            next: pos,
            dropped,
            more: pos < until,
        }
    }

    /// The last `n` lines of the program's output.
    pub fn tail_lines(&self, n: usize) -> Vec<String> {
        self.tail_lines_by(Speaker::Program, n)
    }

    /// The last `n` lines of the streams `speaker` reads.
    pub fn tail_lines_by(&self, speaker: Speaker, n: usize) -> Vec<String> {
        let mut tail = String::new();
        for c in self
            .chunks
            .iter()
            .rev()
            .filter(|c| c.stream.read_by(speaker))
        {
            tail.insert_str(0, &c.text);
            if tail.lines().count() > n || tail.len() > 64 * 1024 {
                break;
            }
        }
        let lines: Vec<&str> = tail.lines().collect();
        lines[lines.len().saturating_sub(n)..]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }
}

fn run_heading(n: usize, runs: usize) -> String {
    let which = if n == runs {
        "this run"
    } else {
        "an earlier run"
    };
    format!("── run {n} of {runs} ({which}) ──\n")
}

/// Marks each stderr line once, at its start; a piece that continues a line
/// begun earlier gets no mark in the middle of it.
fn mark_lines(s: &str, at_start: bool) -> String {
    s.split_inclusive('\n')
        .enumerate()
        .map(|(i, l)| {
            if i > 0 || at_start {
                format!("[stderr] {l}")
            } else {
                l.to_string()
            }
        })
        .collect()
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_reads_continue_where_they_stopped() {
        let mut b = Ring::with_cap(1000);
        b.push(Stream::Stdout, "hello\n");
        b.push(Stream::Stderr, "oops\n");
        let r = b.read(0, 7, false);
        assert_eq!(r.text, "hello\no");
        assert!(r.more);
        let r2 = b.read(r.next, 100, true);
        // The read starts inside a line: its mark went out with the line's start.
        assert_eq!(r2.text, "ops\n");
        assert!(!r2.more);
    }

    #[test]
    fn stderr_is_marked_once_per_line_whatever_the_chunks() {
        let mut b = Ring::with_cap(1000);
        b.push(Stream::Stderr, "Traceback: ^^^");
        b.push(Stream::Stdout, "out\n");
        b.push(Stream::Stderr, "^^^\nValueError: ba");
        b.push(Stream::Stderr, "d value\n");
        let text = b.read(0, 1000, true).text;
        assert_eq!(
            text,
            "[stderr] Traceback: ^^^out\n^^^\n[stderr] ValueError: bad value\n"
        );
        let (pieces, next) = b.pieces(0, 1000);
        let streams: Vec<Stream> = pieces.iter().map(|p| p.stream).collect();
        assert_eq!(
            streams,
            vec![
                Stream::Stderr,
                Stream::Stdout,
                Stream::Stderr,
                Stream::Stderr
            ]
        );
        assert_eq!(next, b.end());
    }

    #[test]
    fn cap_drops_oldest_and_reports_it() {
        let mut b = Ring::with_cap(10);
        for _ in 0..5 {
            b.push(Stream::Stdout, "abcd");
        }
        assert!(b.bytes <= 10);
        let r = b.read(0, 100, false);
        assert!(r.dropped >= 10, "{r:?}");
        assert_eq!(r.next, 20);
    }

    #[test]
    fn a_chunk_bigger_than_the_cap_keeps_its_tail() {
        let mut b = Ring::with_cap(4);
        b.push(Stream::Stdout, "0123456789");
        assert_eq!(b.read(0, 100, false).text, "6789");
        assert_eq!(b.end(), 10);
    }

    #[test]
    fn a_read_from_an_earlier_run_heads_each_run() {
        let mut b = Ring::with_cap(1000);
        b.push(Stream::Stdout, "one\n");
        b.begin_run();
        b.push(Stream::Stdout, "two");
        assert_eq!(b.run_range(2), Some((4, 7)));
        let current = b.read_runs(4, u64::MAX, 100, false);
        assert_eq!(current.text, "two");
        let all = b.read_runs(0, u64::MAX, 100, false);
        assert_eq!(
            all.text,
            "── run 1 of 2 (an earlier run) ──\none\n── run 2 of 2 (this run) ──\ntwo"
        );
        assert_eq!(all.next, 7);
        let first = b.read_runs(0, 4, 100, false);
        assert_eq!(first.text, "── run 1 of 2 (an earlier run) ──\none\n");
        assert!(!first.more);
        let cut = b.read_runs(0, u64::MAX, 2, false);
        assert_eq!(cut.text, "── run 1 of 2 (an earlier run) ──\non");
        assert_eq!(cut.next, 2);
        assert!(cut.more);
    }

    #[test]
    fn tail_lines() {
        let mut b = Ring::with_cap(1000);
        b.push(Stream::Stdout, "a\nb\n");
        b.push(Stream::Stdout, "c\n");
        assert_eq!(b.tail_lines(2), vec!["b", "c"]);
    }
}
