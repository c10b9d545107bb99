//! Source files read for the stop's frames, cached until they change on disk.

use crate::sync::Locked;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::types::SourceFile;

#[derive(Default)]
pub struct SourceCache {
    /// Each file with its modification time and length when read: an edit
    /// within the clock's resolution still changes the length, mostly.
    files: HashMap<PathBuf, (Option<Stamp>, Arc<SourceFile>)>,
}

/// A file's modification time and length.
type Stamp = (SystemTime, u64);

pub type SharedSourceCache = Arc<Mutex<SourceCache>>;

impl SourceCache {
    pub fn get(cache: &SharedSourceCache, path: &Path) -> Option<Arc<SourceFile>> {
        let mtime = std::fs::metadata(path)
            .and_then(|m| Ok((m.modified()?, m.len())))
            .ok();
        let mut c = cache.locked();
        if let Some((t, f)) = c.files.get(path)
            && *t == mtime
        {
            return Some(f.clone());
        }
        let text = std::fs::read_to_string(path).ok()?;
        let file = Arc::new(SourceFile {
            path: path.to_path_buf(),
            lines: text.lines().map(str::to_string).collect(),
        });
        c.files.insert(path.to_path_buf(), (mtime, file.clone()));
        Some(file)
    }
}
