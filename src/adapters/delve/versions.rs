//! Which Go a delve can read. delve refuses or misreads programs built by a
//! Go newer than it knows ("Go version go1.26 is too recent"), and a delve
//! release knows the Go releases up to its own minor version; so a delve
//! older than the Go here is worth a warning before a session meets it.

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

/// The warning for a delve older than the Go that builds the programs, or
/// None when it is not, or when either version cannot be read (no guess).
pub fn too_old(delve: &str, go: &str) -> Option<String> {
    let (d, g) = (minor(delve)?, minor(go)?);
    (d < g).then(|| {
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
}
