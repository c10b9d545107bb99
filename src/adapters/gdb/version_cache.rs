//! `gdb --version`, asked once per version of the file. pairdbg's own
//! `gdb` is pip's entry-point script, so each ask starts Python (0.1 s
//! alone, several times that on a busy machine), and one launch asked up to
//! three times (is gdb installed, the probe, the spawn), two of them at
//! once. The answer is kept in this process and, for pairdbg's own gdb,
//! in a file beside it, for as long as the file is unchanged: pip writes
//! the script anew on every install and upgrade.

use crate::sync::Locked;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::UNIX_EPOCH;

/// One version of a file: when it was last written, and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Stamp {
    modified_ns: u128,
    len: u64,
}

static SEEN: LazyLock<Mutex<HashMap<PathBuf, (Stamp, String)>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// The first line of `path --version`, from `run` only when neither this
/// process nor `stored` (a file of pairdbg's own) has it for this version
/// of `path`. Callers at the same time wait for one run. A run that fails
/// is not kept.
pub fn first_line(
    path: &Path,
    stored: Option<&Path>,
    run: impl FnOnce(&Path) -> Option<String>,
) -> Option<String> {
    let Some(now) = stamp(path) else {
        return run(path);
    };
    let mut seen = SEEN.locked();
    if let Some((at, line)) = seen.get(path)
        && *at == now
    {
        return Some(line.clone());
    }
    let line = match stored.and_then(|f| read_stored(f, &now)) {
        Some(line) => line,
        None => {
            let line = run(path)?;
            if let Some(f) = stored {
                // A file that cannot be written only costs the next
                // process one more run.
                let _ = std::fs::write(f, format!("{}\n{line}\n", stamp_text(&now)));
            }
            line
        }
    };
    seen.insert(path.to_path_buf(), (now, line.clone()));
    Some(line)
}

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    let modified_ns = meta
        .modified()
        .ok()?
        .duration_since(UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some(Stamp {
        modified_ns,
        len: meta.len(),
    })
}

fn stamp_text(s: &Stamp) -> String {
    format!("{} {}", s.modified_ns, s.len)
}

/// The line `stored` keeps for the version `now`, if it is that version's.
fn read_stored(stored: &Path, now: &Stamp) -> Option<String> {
    let text = std::fs::read_to_string(stored).ok()?;
    let (at, line) = text.split_once('\n')?;
    let line = line.trim();
    (at == stamp_text(now) && !line.is_empty()).then(|| line.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_version_is_asked_once_until_the_file_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let gdb = dir.path().join("gdb");
        let stored = dir.path().join("version");
        std::fs::write(&gdb, "#!/bin/sh\n").expect("write");
        let runs = Cell::new(0);
        let run = |_: &Path| {
            runs.set(runs.get() + 1);
            Some("GNU gdb (GDB) 18.1".to_string())
        };
        assert_eq!(
            first_line(&gdb, Some(&stored), run).as_deref(),
            Some("GNU gdb (GDB) 18.1")
        );
        assert_eq!(
            first_line(&gdb, Some(&stored), run).as_deref(),
            Some("GNU gdb (GDB) 18.1")
        );
        assert_eq!(runs.get(), 1);
        // Another process finds it in the stored file.
        SEEN.locked().clear();
        assert_eq!(
            first_line(&gdb, Some(&stored), |_| None).as_deref(),
            Some("GNU gdb (GDB) 18.1")
        );
        // An upgrade rewrites the script: asked again.
        std::fs::write(&gdb, "#!/bin/sh\n# 19\n").expect("write");
        let upgraded = first_line(&gdb, Some(&stored), |_| Some("GNU gdb (GDB) 19.1".into()));
        assert_eq!(upgraded.as_deref(), Some("GNU gdb (GDB) 19.1"));
    }

    #[test]
    fn a_failed_run_is_not_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let gdb = dir.path().join("gdb");
        std::fs::write(&gdb, "x").expect("write");
        assert_eq!(first_line(&gdb, None, |_| None), None);
        assert_eq!(
            first_line(&gdb, None, |_| Some("GNU gdb 14.2".into())).as_deref(),
            Some("GNU gdb 14.2")
        );
    }
}
