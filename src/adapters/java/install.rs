//! The JDK that runs the program and compiles pairdbg's DAP server: found
//! through JAVA_HOME, then `javac` on PATH; the server is compiled from the
//! sources pairdbg carries into the data directory, once per JDK version
//! and version of the sources.

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use crate::adapters::{AdapterError, which};

pub const INSTALL: &str = "pairdbg adapters install java";
/// The oldest JDK whose JDI the server is written against.
const MIN_MAJOR: u32 = 17;
/// The class `java` runs.
pub const MAIN_CLASS: &str = "DapServer";

const SOURCES: &[(&str, &str)] = &[
    ("DapServer.java", include_str!("server/DapServer.java")),
    ("Breakpoints.java", include_str!("server/Breakpoints.java")),
    ("Eval.java", include_str!("server/Eval.java")),
    ("Events.java", include_str!("server/Events.java")),
    ("Invoke.java", include_str!("server/Invoke.java")),
    ("Json.java", include_str!("server/Json.java")),
    ("Launcher.java", include_str!("server/Launcher.java")),
    ("Session.java", include_str!("server/Session.java")),
    ("Steps.java", include_str!("server/Steps.java")),
    ("Values.java", include_str!("server/Values.java")),
    ("Wire.java", include_str!("server/Wire.java")),
];

/// A JDK: its home and version (`17.0.15`).
#[derive(Debug, Clone)]
pub struct Jdk {
    pub home: PathBuf,
    pub version: String,
}

impl Jdk {
    pub fn java(&self) -> PathBuf {
        self.home.join("bin").join("java")
    }

    fn javac(&self) -> PathBuf {
        self.home.join("bin").join("javac")
    }
}

/// JAVA_HOME's JDK, else the one `javac` on PATH belongs to; at least
/// Java 17, with its compiler.
pub fn find_jdk() -> Result<Jdk, AdapterError> {
    let home = match std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        Some(h) => PathBuf::from(h),
        None => {
            let javac = which("javac").ok_or_else(|| AdapterError::Missing {
                what: "no JDK: JAVA_HOME is not set and javac is not on PATH".into(),
                fix: "apt-get install -y openjdk-17-jdk-headless (or set JAVA_HOME to a JDK 17 or newer)"
                    .into(),
            })?;
            let real = std::fs::canonicalize(&javac).unwrap_or(javac);
            real.parent()
                .and_then(Path::parent)
                .map(Path::to_path_buf)
                .ok_or_else(|| AdapterError::NotFound(format!("{} is in no JDK", real.display())))?
        }
    };
    for tool in ["java", "javac"] {
        if !home.join("bin").join(tool).is_file() {
            return Err(AdapterError::Missing {
                what: format!("the JDK at {} has no bin/{tool}", home.display()),
                fix: "install a JDK 17 or newer (not a JRE) and set JAVA_HOME to it".into(),
            });
        }
    }
    let version = jdk_version(&home)?;
    let major = major(&version);
    if major.is_none_or(|m| m < MIN_MAJOR) {
        return Err(AdapterError::Missing {
            what: format!(
                "the JDK at {} is Java {version}; pairdbg needs {MIN_MAJOR} or newer",
                home.display()
            ),
            fix: "set JAVA_HOME to a JDK 17 or newer".into(),
        });
    }
    Ok(Jdk { home, version })
}

/// From the JDK's `release` file, else from `javac -version`.
fn jdk_version(home: &Path) -> Result<String, AdapterError> {
    if let Ok(text) = std::fs::read_to_string(home.join("release"))
        && let Some(v) = text
            .lines()
            .find_map(|l| l.strip_prefix("JAVA_VERSION="))
            .map(|v| v.trim().trim_matches('"').to_string())
    {
        return Ok(v);
    }
    let javac = home.join("bin").join("javac");
    let out = Command::new(&javac)
        .arg("-version")
        .output()
        .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", javac.display())))?;
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    text.split_whitespace()
        .nth(1)
        .map(str::to_string)
        .ok_or_else(|| AdapterError::NotFound(format!("{} -version said: {text}", javac.display())))
}

/// `17` from `17.0.15`, `8` from `1.8.0_392`.
pub fn major(version: &str) -> Option<u32> {
    let mut parts = version.split(['.', '_', '-', '+']);
    match parts.next()?.parse().ok()? {
        1 => parts.next()?.parse().ok(),
        m => Some(m),
    }
}

/// Where the server compiled for `jdk` lives: keyed by the JDK's version
/// and the sources' hash, so a new JDK or a new pairdbg compiles afresh.
pub fn server_dir(jdk: &Jdk) -> Result<PathBuf, AdapterError> {
    let root = crate::paths::data_dir().ok_or_else(|| {
        AdapterError::NotFound("no data directory: set HOME or XDG_DATA_HOME".into())
    })?;
    Ok(root
        .join("adapters")
        .join("java")
        .join(format!("{}-{}", jdk.version, sources_hash())))
}

fn sources_hash() -> String {
    let mut h = Sha256::new();
    for (name, text) in SOURCES {
        h.update(name.as_bytes());
        h.update(text.as_bytes());
    }
    h.finalize()
        .iter()
        .take(6)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The compiled server, where it is.
pub fn installed(jdk: &Jdk) -> Result<PathBuf, AdapterError> {
    let dir = server_dir(jdk)?;
    if dir.join(format!("{MAIN_CLASS}.class")).is_file() {
        return Ok(dir);
    }
    Err(AdapterError::Missing {
        what: format!(
            "pairdbg's Java debug server is not compiled for Java {}",
            jdk.version
        ),
        fix: INSTALL.into(),
    })
}

/// Compiles the server with the JDK's javac, into a folder renamed into
/// place only once whole.
pub fn install(jdk: &Jdk) -> Result<PathBuf, AdapterError> {
    let dir = server_dir(jdk)?;
    if dir.join(format!("{MAIN_CLASS}.class")).is_file() {
        return Ok(dir);
    }
    let parent = dir.parent().unwrap_or(&dir).to_path_buf();
    let failed = |what: &str, e: std::io::Error| {
        AdapterError::NotFound(format!("cannot {what} in {}: {e}", parent.display()))
    };
    std::fs::create_dir_all(&parent).map_err(|e| failed("create a folder", e))?;
    let work = tempfile::Builder::new()
        .prefix(".compiling-")
        .tempdir_in(&parent)
        .map_err(|e| failed("create a folder", e))?;
    let src = work.path().join("src");
    let out = work.path().join("classes");
    std::fs::create_dir_all(&src).map_err(|e| failed("create a folder", e))?;
    let mut files = vec![];
    for (name, text) in SOURCES {
        let f = src.join(name);
        std::fs::write(&f, text).map_err(|e| failed("write the sources", e))?;
        files.push(f);
    }
    let result = Command::new(jdk.javac())
        .args(["-g", "-nowarn", "-d"])
        .arg(&out)
        .args(&files)
        .output()
        .map_err(|e| {
            AdapterError::NotFound(format!("cannot run {}: {e}", jdk.javac().display()))
        })?;
    if !result.status.success() {
        return Err(AdapterError::NotFound(format!(
            "{} could not compile pairdbg's Java debug server: {}",
            jdk.javac().display(),
            String::from_utf8_lossy(&result.stderr).trim()
        )));
    }
    match std::fs::rename(&out, &dir) {
        Ok(()) => Ok(dir),
        // Another install finished first: its copy is as good.
        Err(_) if dir.join(format!("{MAIN_CLASS}.class")).is_file() => Ok(dir),
        Err(e) => Err(failed("install the server", e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_major_version() {
        assert_eq!(major("17.0.15"), Some(17));
        assert_eq!(major("21"), Some(21));
        assert_eq!(major("1.8.0_392"), Some(8));
        assert_eq!(major("x"), None);
    }
}
