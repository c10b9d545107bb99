//! Finding a gdb that speaks DAP (14 or later), and installing one: the
//! PyPI package `gdb-for-pwndbg` in a virtual environment pairdbg owns under
//! its data directory, so no root and no system gdb is needed.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::adapters::{AdapterError, which};

/// The package that brings a whole gdb, Python included, as a wheel.
pub const PACKAGE: &str = "gdb-for-pwndbg";
/// The first gdb with a DAP server (`gdb -i dap`).
const FIRST_DAP_MAJOR: u32 = 14;
const VENV: &str = "gdb-venv";
/// Where the venv keeps its gdb's `--version` line (see version_cache.rs).
const VERSION_FILE: &str = "pairdbg-gdb-version";

/// A gdb that can debug over DAP.
#[derive(Debug, Clone)]
pub struct Installed {
    pub path: PathBuf,
    /// `GNU gdb (GDB) 18.1`.
    pub version: String,
}

/// pairdbg's own gdb, else one on PATH new enough to speak DAP; otherwise
/// why not, with the way to get one.
pub fn find() -> Result<Installed, AdapterError> {
    let own = venv_dir().map(|d| d.join("bin/gdb"));
    if let Some(p) = own.as_deref().filter(|p| p.is_file())
        && let Some(found) = with_dap(p)
    {
        return Ok(found);
    }
    let why = match which("gdb") {
        Some(p) => match version(&p) {
            Some((text, major)) if major >= FIRST_DAP_MAJOR => {
                return Ok(Installed {
                    path: p,
                    version: text,
                });
            }
            Some((text, _)) => format!(
                "the gdb on PATH ({text}, {}) has no DAP server, which came in gdb {FIRST_DAP_MAJOR}",
                p.display()
            ),
            None => format!("cannot read the version of {}", p.display()),
        },
        None => "gdb is not installed".to_string(),
    };
    Err(AdapterError::Missing {
        what: format!("{why} (Rust programs are debugged with gdb)"),
        fix: super::INSTALL.into(),
    })
}

/// Whether gdb is here at all, without saying why not, for choosing the
/// adapter of a language. Once found it is taken as staying; until then
/// each launch looks again, so an install made meanwhile counts.
pub fn is_installed() -> bool {
    static FOUND: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if FOUND.get().is_some() {
        return true;
    }
    let here = find().is_ok();
    if here {
        let _ = FOUND.set(());
    }
    here
}

fn with_dap(path: &Path) -> Option<Installed> {
    let (text, major) = version(path)?;
    (major >= FIRST_DAP_MAJOR).then(|| Installed {
        path: path.to_path_buf(),
        version: text,
    })
}

/// The first line of `gdb --version` and its major version.
fn version(path: &Path) -> Option<(String, u32)> {
    let own = venv_dir().filter(|d| path == d.join("bin/gdb"));
    let stored = own.map(|d| d.join(VERSION_FILE));
    let first = super::version_cache::first_line(path, stored.as_deref(), |p| {
        let out = Command::new(p).arg("--version").output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        Some(text.lines().next()?.trim().to_string())
    })?;
    Some((first.clone(), major_version(&first)?))
}

/// `GNU gdb (Debian 13.1-3) 13.1` → 13; `GNU gdb (GDB) 18.1` → 18.
fn major_version(line: &str) -> Option<u32> {
    line.split_whitespace()
        .last()?
        .split('.')
        .next()?
        .parse()
        .ok()
}

fn venv_dir() -> Option<PathBuf> {
    crate::paths::data_dir().map(|d| d.join("adapters").join(VENV))
}

/// Creates the virtual environment (with the first `python3` on PATH) and
/// installs the package into it.
pub fn install() -> Result<Installed, AdapterError> {
    let venv = venv_dir().ok_or_else(|| {
        AdapterError::NotFound("no data directory: set HOME or XDG_DATA_HOME".into())
    })?;
    let python = which("python3").ok_or_else(|| AdapterError::Missing {
        what: "python3 is not on PATH, and gdb is installed with its pip".into(),
        fix: "apt-get install -y python3 python3-venv".into(),
    })?;
    if !venv.join("bin/pip").is_file() {
        run(
            Command::new(&python).args(["-m", "venv"]).arg(&venv),
            "python3 -m venv",
        )?;
    }
    run(
        Command::new(venv.join("bin/pip")).args(["install", "--quiet", "--upgrade", PACKAGE]),
        &format!("pip install {PACKAGE}"),
    )?;
    let gdb = venv.join("bin/gdb");
    with_dap(&gdb).ok_or_else(|| {
        AdapterError::NotFound(format!(
            "{PACKAGE} installed, but {} does not run or is older than gdb {FIRST_DAP_MAJOR}",
            gdb.display()
        ))
    })
}

fn run(cmd: &mut Command, what: &str) -> Result<(), AdapterError> {
    let out = cmd
        .output()
        .map_err(|e| AdapterError::NotFound(format!("cannot run {what}: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    Err(AdapterError::NotFound(format!(
        "{what} failed ({}): {}",
        out.status,
        last.trim()
    )))
}

/// A directory holding only pairdbg's own gdb, as `gdb`, for tools that run
/// whatever `gdb` is first on PATH (debugpy's attach by pid injects itself
/// with it). Older gdbs, Debian's 13 among them, fail to call into a
/// process on some machines ("Couldn't write extended state status").
/// None when pairdbg has no gdb of its own.
pub fn alone_on_path() -> Option<PathBuf> {
    let gdb = venv_dir()?.join("bin/gdb");
    if !gdb.is_file() {
        return None;
    }
    let dir = crate::paths::data_dir()?.join("adapters").join("gdb-alone");
    let link = dir.join("gdb");
    if std::fs::read_link(&link).ok().as_deref() != Some(gdb.as_path()) {
        std::fs::create_dir_all(&dir).ok()?;
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&gdb, &link).ok()?;
    }
    Some(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_read_from_the_last_word() {
        assert_eq!(major_version("GNU gdb (Debian 13.1-3) 13.1"), Some(13));
        assert_eq!(major_version("GNU gdb (GDB) 18.1"), Some(18));
        assert_eq!(major_version("GNU gdb"), None);
    }
}
