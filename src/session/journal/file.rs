//! A journal on disk: JSON lines, buffered, capped per part and rotated.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use super::record::Record;

pub struct JournalFile {
    path: PathBuf,
    out: BufWriter<File>,
    /// Bytes written to the current part.
    written: u64,
    /// The most one part may hold before it is rotated out.
    part_bytes: u64,
    /// Repeated at the top of each new part, so every part reads alone.
    start: Record,
}

impl JournalFile {
    pub fn create(path: PathBuf, start: Record, part_bytes: u64) -> std::io::Result<JournalFile> {
        let out = BufWriter::new(open(&path)?);
        let mut f = JournalFile {
            path,
            out,
            written: 0,
            part_bytes,
            start: start.clone(),
        };
        f.write(&start)?;
        Ok(f)
    }

    pub fn write(&mut self, record: &Record) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(record).map_err(std::io::Error::other)?;
        line.push(b'\n');
        if self.written > 0 && self.written + line.len() as u64 > self.part_bytes {
            self.rotate()?;
        }
        self.out.write_all(&line)?;
        self.written += line.len() as u64;
        Ok(())
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// The full part becomes the previous one (replacing an older previous
    /// part), so a journal holds at most two parts: the newest records win.
    fn rotate(&mut self) -> std::io::Result<()> {
        self.out.flush()?;
        std::fs::rename(&self.path, previous_part(&self.path))?;
        self.out = BufWriter::new(open(&self.path)?);
        let full = self.written;
        self.written = 0;
        let start = self.start.clone();
        self.write(&start)?;
        self.write(&Record::Rotated {
            at: super::now_ms(),
            part_bytes: full,
        })
    }
}

/// Where a journal's previous part goes when it rotates.
pub fn previous_part(path: &Path) -> PathBuf {
    path.with_extension("prev.jsonl")
}

fn open(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .mode(0o600)
        .open(path)
}
