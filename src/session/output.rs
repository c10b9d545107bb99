//! The program's output: a ring buffer capped in bytes, read through an
//! absolute cursor so readers never see a byte twice or silently miss one.

use std::collections::VecDeque;

pub const OUTPUT_CAP_BYTES: usize = 10 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stream {
    Stdout,
    Stderr,
    Console,
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
pub struct OutputBuffer {
    chunks: VecDeque<Chunk>,
    /// Per stream: its last chunk left a line unfinished.
    open_line: [bool; 3],
    bytes: usize,
    cap: usize,
    end: u64,
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

impl Default for OutputBuffer {
    fn default() -> Self {
        Self::with_cap(OUTPUT_CAP_BYTES)
    }
}

impl OutputBuffer {
    pub fn with_cap(cap: usize) -> Self {
        OutputBuffer {
            chunks: VecDeque::new(),
            open_line: [false; 3],
            bytes: 0,
            cap,
            end: 0,
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
        let dropped = self.start().saturating_sub(since);
        let (pieces, next) = self.pieces(since, max_bytes);
        let mut text = String::new();
        for p in pieces {
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

    /// The last `n` lines of the program's output.
    pub fn tail_lines(&self, n: usize) -> Vec<String> {
        let mut tail = String::new();
        for c in self.chunks.iter().rev() {
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
        let mut b = OutputBuffer::with_cap(1000);
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
        let mut b = OutputBuffer::with_cap(1000);
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
        let mut b = OutputBuffer::with_cap(10);
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
        let mut b = OutputBuffer::with_cap(4);
        b.push(Stream::Stdout, "0123456789");
        assert_eq!(b.read(0, 100, false).text, "6789");
        assert_eq!(b.end(), 10);
    }

    #[test]
    fn tail_lines() {
        let mut b = OutputBuffer::with_cap(1000);
        b.push(Stream::Stdout, "a\nb\n");
        b.push(Stream::Stdout, "c\n");
        assert_eq!(b.tail_lines(2), vec!["b", "c"]);
    }
}
