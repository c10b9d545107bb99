//! The session journal: every command with its origin, every stop with its
//! viewport, the notes and the breakpoints, as JSON lines under the user's
//! state directory. A thread of its own writes it, so the engine never
//! waits on the disk. Secrets are masked before a record is written: the
//! file holds what an agent may read.

mod card;
mod file;
mod mask;
pub mod query;
mod record;
mod store;
mod tracker;

use std::sync::{Arc, OnceLock, mpsc};

pub use card::render_card;
pub use record::{BreakpointRecord, FrameRecord, Record, StopRecord, ValueRecord};
pub use store::{find, journals_dir, list, prune, read};

use super::command::Command;
use super::secrets::Taint;
use super::types::{Origin, Snapshot};

/// The most one part of a journal holds; a journal keeps two parts, so
/// 20 MB at most, its newest records.
pub const JOURNAL_PART_BYTES: u64 = 10 * 1024 * 1024;
/// Journals kept; starting a session deletes the oldest beyond this.
pub const JOURNALS_KEPT: usize = 50;
/// Longest command text recorded.
const COMMAND_CHARS: usize = 300;
/// The program's output a journal keeps, so that a chatty program cannot
/// rotate its stops and notes out.
pub const OUTPUT_BYTES_KEPT: u64 = 512 * 1024;

/// How a stop reads to an agent: the viewport, given by the front ends'
/// side, since the session does not render.
pub type StopRenderer = fn(&Snapshot) -> String;

static RENDERER: OnceLock<StopRenderer> = OnceLock::new();

/// Sets how stops are written into journals, once per process.
pub fn set_stop_renderer(render: StopRenderer) {
    let _ = RENDERER.set(render);
}

/// How a value reads to the person and the agent, given by the front
/// ends' side: the journal keeps what they saw, not the adapter's text.
pub type ValueRenderer = fn(&crate::session::types::Var) -> String;

static VALUE_RENDERER: OnceLock<ValueRenderer> = OnceLock::new();

/// Sets how values are written into journals, once per process.
pub fn set_value_renderer(render: ValueRenderer) {
    let _ = VALUE_RENDERER.set(render);
}

/// A value as shown; the adapter's text where no renderer was set.
fn shown_value(v: &crate::session::types::Var) -> String {
    VALUE_RENDERER
        .get()
        .map(|r| r(v))
        .unwrap_or_else(|| v.value.clone())
}

enum Entry {
    Command {
        at: u64,
        origin: Origin,
        text: String,
        control: bool,
    },
    Published(Arc<Snapshot>),
    Output {
        at: u64,
        stream: &'static str,
        text: String,
    },
    /// Called once everything sent before it is on disk.
    Written(Box<dyn FnOnce() + Send>),
}

/// What a journal is of: its first record, and the secrets to mask.
pub struct Launched {
    pub session: String,
    pub program: String,
    pub args: Vec<String>,
    pub workspace: std::path::PathBuf,
    pub taint: Taint,
}

/// The engine's end of a journal. Dropping every clone ends the writer
/// after it has written what it was sent.
#[derive(Clone)]
pub struct Journal {
    tx: mpsc::Sender<Entry>,
    path: std::path::PathBuf,
}

impl Journal {
    /// Starts the journal of a session, or None (logged) where it cannot be
    /// written: a session runs the same without one.
    pub fn start(launched: Launched) -> Option<Journal> {
        let dir = journals_dir()?;
        Self::start_in(&dir, launched, JOURNAL_PART_BYTES, JOURNALS_KEPT)
            .inspect_err(|e| tracing::warn!("no journal in {}: {e}", dir.display()))
            .ok()
    }

    pub fn start_in(
        dir: &std::path::Path,
        launched: Launched,
        part_bytes: u64,
        keep: usize,
    ) -> std::io::Result<Journal> {
        let Launched {
            session,
            program,
            args,
            workspace,
            taint,
        } = launched;
        let session = session.as_str();
        use std::os::unix::fs::DirBuilderExt;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        // Room for the new one.
        prune(dir, keep.saturating_sub(1));
        // Names sort by age: a journal never starts before the newest one
        // kept, even when several start within one millisecond.
        let newest = store::list(dir).last().and_then(|p| store::started_ms(p));
        let mut at = now_ms().max(newest.map_or(0, |t| t + 1));
        let pid = std::process::id();
        // Two sessions started in one millisecond still get a file each.
        while dir.join(store::file_name(at, pid, session)).exists() {
            at += 1;
        }
        let path = dir.join(store::file_name(at, pid, session));
        let mut start = Record::Start {
            session: session.to_string(),
            workspace: workspace.display().to_string(),
            program,
            args,
            pid,
            at,
        };
        mask::record(&mut start, &taint);
        let out = file::JournalFile::create(path.clone(), start, part_bytes)?;
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("journal".into())
            .spawn(move || write_all(out, rx, taint))?;
        Ok(Journal { tx, path })
    }

    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    pub fn command(&self, origin: Origin, command: &Command) {
        let mut text = format!("{command:?}");
        if text.len() > COMMAND_CHARS {
            let end = (0..=COMMAND_CHARS)
                .rev()
                .find(|i| text.is_char_boundary(*i))
                .unwrap_or(0);
            text.truncate(end);
            text.push('…');
        }
        let _ = self.tx.send(Entry::Command {
            at: now_ms(),
            origin,
            text,
            control: command.is_control(),
        });
    }

    /// What the program wrote on `stream` (`stdout`, `stderr`).
    pub fn output(&self, stream: &'static str, text: &str) {
        let _ = self.tx.send(Entry::Output {
            at: now_ms(),
            stream,
            text: text.to_string(),
        });
    }

    pub fn published(&self, snap: Arc<Snapshot>) {
        let _ = self.tx.send(Entry::Published(snap));
    }

    /// Calls `done` once what was sent so far is written (at once if the
    /// writer is gone).
    pub fn after_written(&self, done: Box<dyn FnOnce() + Send>) {
        if let Err(mpsc::SendError(Entry::Written(done))) = self.tx.send(Entry::Written(done)) {
            done();
        }
    }
}

fn write_all(mut out: file::JournalFile, rx: mpsc::Receiver<Entry>, taint: Taint) {
    let mut tracker = tracker::Tracker::default();
    let render = RENDERER.get().copied();
    let mut failed = false;
    let mut output_bytes: u64 = 0;
    let mut output_capped = false;
    while let Ok(first) = rx.recv() {
        let mut next = Some(first);
        // Whatever queued meanwhile goes out in one flush.
        while let Some(entry) = next {
            let records = match entry {
                Entry::Command {
                    at,
                    origin,
                    text,
                    control,
                } => vec![Record::Command {
                    at,
                    origin,
                    command: text,
                    control,
                }],
                Entry::Published(snap) => tracker.records(&snap, render),
                Entry::Output { at, stream, text } => {
                    let fits = output_bytes + text.len() as u64 <= OUTPUT_BYTES_KEPT;
                    match (fits, output_capped) {
                        (true, false) => {
                            output_bytes += text.len() as u64;
                            vec![Record::Output {
                                at,
                                stream: stream.to_string(),
                                text,
                            }]
                        }
                        // Said once; nothing after it, so that no later
                        // piece reads as following the one before.
                        (false, false) => {
                            output_capped = true;
                            vec![Record::OutputCapped {
                                at,
                                bytes: OUTPUT_BYTES_KEPT,
                            }]
                        }
                        (_, true) => vec![],
                    }
                }
                Entry::Written(done) => {
                    let _ = out.flush();
                    done();
                    vec![]
                }
            };
            for mut r in records {
                mask::record(&mut r, &taint);
                if let Err(e) = out.write(&r)
                    && !failed
                {
                    failed = true;
                    tracing::warn!("journal write failed: {e}");
                }
            }
            next = rx.try_recv().ok();
        }
        let _ = out.flush();
    }
}

pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}
