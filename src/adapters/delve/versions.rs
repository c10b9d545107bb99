//! Which Go a delve can read. delve refuses or misreads programs built by a
//! Go newer than it knows ("Go version go1.26 is too recent"), and a delve
//! release knows the Go releases up to its own minor version; so a delve
//! older than the Go here is worth a warning before a session meets it.

use std::path::Path;

use tokio::process::Command;

/// `(1, 26)` from `go1.26.8`, `go1.26rc1`, `1.26` or `1.27.2`.
pub fn minor(version: &str) -> Option<(u32, u32)> {
    let v = version.trim();
    let v = v.strip_prefix("go").unwrap_or(v);
    let mut parts = v.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor: String = parts
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    Some((major, minor.parse().ok()?))
}

/// Whether the delve is older than the Go; None when either version
/// cannot be read (no guess).
pub fn older(delve: &str, go: &str) -> Option<bool> {
    Some(minor(delve)? < minor(go)?)
}

/// The warning for a delve older than the Go that builds the programs, or
/// None when it is not, or when either version cannot be read.
pub fn too_old(delve: &str, go: &str) -> Option<String> {
    older(delve, go)?.then(|| {
        format!(
            "delve {delve} is older than {go}: it may not read what this Go builds; \
             update it with: pairdbg adapters install go"
        )
    })
}

/// `go1.26.8` from `go env GOVERSION`, or None without a usable `go`.
pub async fn go_version() -> Option<String> {
    let go = super::which("go")?;
    let out = Command::new(go)
        .args(["env", "GOVERSION"])
        .output()
        .await
        .ok()?;
    let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && v.starts_with("go")).then_some(v)
}

/// The start of a Go binary's build information, 16-byte aligned.
const BUILD_INFO: &[u8] = b"\xff Go buildinf:";

/// `go1.26.8`, the Go that built `program`, from its build information
/// (written inline since Go 1.18); None where it cannot be read.
pub fn built_by(program: &Path) -> Option<String> {
    let data = std::fs::read(program).ok()?;
    let at = (0..data.len())
        .step_by(16)
        .find(|&i| data[i..].starts_with(BUILD_INFO))?;
    let header = data.get(at..at + 32)?;
    // Flag 2: the strings follow the header; older binaries point at them.
    if header[15] & 2 == 0 {
        return None;
    }
    let (len, used) = uvarint(data.get(at + 32..)?)?;
    let start = at + 32 + used;
    let text = data.get(start..start.checked_add(len)?)?;
    let v = std::str::from_utf8(text).ok()?;
    v.starts_with("go").then(|| v.to_string())
}

/// A Go `uvarint`: the value and the bytes it took.
fn uvarint(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut value = 0usize;
    for (i, b) in bytes.iter().take(9).enumerate() {
        value |= ((b & 0x7f) as usize) << (7 * i);
        if b & 0x80 == 0 {
            return Some((value, i + 1));
        }
    }
    None
}

/// `1.27.2`, as `dlv version` says, for a launch that cannot wait on async.
pub fn delve_version_now(dlv: &Path) -> Option<String> {
    let out = std::process::Command::new(dlv)
        .arg("version")
        .output()
        .ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.trim().strip_prefix("Version:"))
        .map(|v| v.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_go_and_delve_versions() {
        assert_eq!(minor("go1.26.8"), Some((1, 26)));
        assert_eq!(minor("go1.27rc1"), Some((1, 27)));
        assert_eq!(minor("1.20.2"), Some((1, 20)));
        assert_eq!(minor("devel +abc"), None);
        assert_eq!(minor(""), None);
    }

    #[test]
    fn warns_only_when_delve_is_older_than_go() {
        let w = too_old("1.20.2", "go1.26.8").expect("1.20 is older than 1.26");
        assert!(
            w.contains("delve 1.20.2 is older than go1.26.8")
                && w.contains("pairdbg adapters install go"),
            "{w}"
        );
        assert_eq!(too_old("1.27.2", "go1.26.8"), None);
        assert_eq!(too_old("1.26.0", "go1.26.8"), None);
        // An unreadable version is no reason to warn.
        assert_eq!(too_old("1.20.2", "devel"), None);
    }

    #[test]
    fn reads_the_go_version_a_binary_was_built_by() {
        let dir = tempfile::tempdir().unwrap();
        let mut data = vec![0u8; 48];
        data.extend_from_slice(BUILD_INFO);
        data.extend_from_slice(&[8, 2]);
        data.resize(48 + 32, 0);
        data.push(8);
        data.extend_from_slice(b"go1.26.8");
        data.extend_from_slice(&[0; 20]);
        let bin = dir.path().join("bin");
        std::fs::write(&bin, &data).unwrap();
        assert_eq!(built_by(&bin).as_deref(), Some("go1.26.8"));
        // An older binary's pointers are not read as text.
        data[48 + 15] = 0;
        std::fs::write(&bin, &data).unwrap();
        assert_eq!(built_by(&bin), None);
        std::fs::write(&bin, b"#!/bin/sh\n").unwrap();
        assert_eq!(built_by(&bin), None);
    }
}
