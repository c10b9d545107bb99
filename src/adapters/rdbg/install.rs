//! Finding rdbg and the Ruby it runs. Debian's `ruby` package bundles the
//! `debug` gem, whose `rdbg` speaks DAP; it installs it as `rdbg3.1` (the
//! Ruby's own version) where a gem install calls it `rdbg`.

use std::path::PathBuf;

use tokio::process::Command;

use crate::adapters::{AdapterError, Found, which};

pub const APT_INSTALL: &str = "apt-get install -y ruby";

/// `rdbg` on PATH, else Debian's versioned `rdbgX.Y`.
pub fn find_rdbg() -> Result<PathBuf, AdapterError> {
    if let Some(p) = which("rdbg") {
        return Ok(p);
    }
    let versioned = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_prefix("rdbg"))
                .is_some_and(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit() || c == '.'))
        })
        .max();
    versioned.ok_or_else(|| AdapterError::Missing {
        what: "rdbg (Ruby's debug gem) is not on PATH".into(),
        fix: format!("sudo apt-get update && sudo {APT_INSTALL}"),
    })
}

/// The Ruby that rdbg runs the program with: the one of the same version
/// (`ruby3.1` beside `rdbg3.1`), else `ruby` on PATH.
pub fn find_ruby(rdbg: &std::path::Path) -> Result<PathBuf, AdapterError> {
    let suffix = rdbg
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix("rdbg"))
        .unwrap_or("");
    let beside = rdbg.with_file_name(format!("ruby{suffix}"));
    if beside.is_file() {
        return Ok(beside);
    }
    which("ruby").ok_or_else(|| AdapterError::Missing {
        what: "ruby is not on PATH".into(),
        fix: format!("sudo apt-get update && sudo {APT_INSTALL}"),
    })
}

/// `rdbg 1.4.0, ruby 3.1.2` from their `--version`s.
pub async fn probe() -> Result<Found, AdapterError> {
    let rdbg = find_rdbg()?;
    let ruby = find_ruby(&rdbg)?;
    let said = |p: &std::path::Path| {
        let p = p.to_path_buf();
        async move {
            let out = Command::new(&p)
                .arg("--version")
                .output()
                .await
                .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", p.display())))?;
            Ok::<_, AdapterError>(String::from_utf8_lossy(&out.stdout).trim().to_string())
        }
    };
    let (d, r) = (said(&rdbg).await?, said(&ruby).await?);
    Ok(Found {
        version: format!("rdbg {}, ruby {}", second_word(&d), second_word(&r)),
        path: rdbg.display().to_string(),
        warning: None,
    })
}

/// `1.4.0` from `rdbg3 1.4.0`, `3.1.2p20` from `ruby 3.1.2p20 (2022-04-12 ...)`;
/// the whole text where it has no second word.
fn second_word(text: &str) -> &str {
    text.split_whitespace().nth(1).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_versions() {
        assert_eq!(super::second_word("rdbg3 1.4.0"), "1.4.0");
        assert_eq!(
            super::second_word("ruby 3.1.2p20 (2022-04-12 revision 4491bb740a) [x86_64-linux-gnu]"),
            "3.1.2p20"
        );
    }
}
