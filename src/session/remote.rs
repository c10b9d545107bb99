//! An attach to a debug server over the network, checked at the edge: the
//! host, the port, and the path mappings between the workspace and the
//! machine the program runs on.

use std::net::IpAddr;

use super::error::SessionError;
use super::validate::Workspace;
use crate::adapters::{PathMapping, Remote};

/// A remote attach as a controller asks for it: raw, not yet trusted.
#[derive(Debug, Clone, Default)]
pub struct RemoteRequest {
    pub host: Option<String>,
    pub port: Option<u32>,
    /// (local, remote) pairs.
    pub path_mappings: Vec<(String, String)>,
}

/// The most path mappings one attach takes.
const MAX_MAPPINGS: usize = 32;
/// The longest remote path accepted.
const MAX_REMOTE_PATH: usize = 4096;
/// The longest host name (RFC 1035).
const MAX_HOST: usize = 253;

impl RemoteRequest {
    /// Whether anything of a remote attach was asked for.
    pub fn is_given(&self) -> bool {
        self.host.is_some() || self.port.is_some() || !self.path_mappings.is_empty()
    }

    pub fn validate(
        &self,
        ws: &Workspace,
        program: Option<std::path::PathBuf>,
    ) -> Result<Remote, SessionError> {
        let host = match self.host.as_deref().map(str::trim) {
            Some(h) => check_host(h)?,
            None => {
                return Err(SessionError::invalid(
                    "host",
                    "give the debug server's host",
                ));
            }
        };
        let port = match self.port {
            Some(p @ 1..=65535) => p as u16,
            Some(p) => {
                return Err(SessionError::invalid(
                    "port",
                    format!("{p} is out of range; use 1 to 65535"),
                ));
            }
            None => {
                return Err(SessionError::invalid(
                    "port",
                    "give the debug server's port",
                ));
            }
        };
        if self.path_mappings.len() > MAX_MAPPINGS {
            return Err(SessionError::invalid(
                "path_mappings",
                format!(
                    "{} mappings; the limit is {MAX_MAPPINGS}",
                    self.path_mappings.len()
                ),
            ));
        }
        let path_mappings = self
            .path_mappings
            .iter()
            .enumerate()
            .map(|(i, (local, remote))| check_mapping(ws, i, local, remote))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Remote {
            host,
            port,
            path_mappings,
            program,
        })
    }
}

/// A host name (letters, digits, `-`, dot-separated) or an IP address; an
/// IPv6 address may come in brackets.
fn check_host(raw: &str) -> Result<String, SessionError> {
    let bare = raw
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(raw);
    if bare.parse::<IpAddr>().is_ok() {
        return Ok(bare.to_string());
    }
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.len() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    };
    if bare.is_empty() || bare.len() > MAX_HOST || !bare.split('.').all(label_ok) {
        return Err(SessionError::invalid(
            "host",
            format!(
                "{raw:?} is not a host name or IP address (letters, digits, `-` and dots, up to {MAX_HOST} characters)"
            ),
        ));
    }
    Ok(bare.to_string())
}

fn check_mapping(
    ws: &Workspace,
    i: usize,
    local: &str,
    remote: &str,
) -> Result<PathMapping, SessionError> {
    let field = |f: &str| format!("path_mappings[{i}].{f}");
    let local = ws.resolve_program(&field("local"), local)?;
    let remote = remote.trim();
    if remote.is_empty() {
        return Err(SessionError::invalid(&field("remote"), "the path is empty"));
    }
    if remote.chars().count() > MAX_REMOTE_PATH {
        return Err(SessionError::invalid(
            &field("remote"),
            format!(
                "{} characters; the limit is {MAX_REMOTE_PATH}",
                remote.chars().count()
            ),
        ));
    }
    Ok(PathMapping {
        local,
        remote: remote.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        for ok in [
            "127.0.0.1",
            "localhost",
            "::1",
            "[::1]",
            "build-01.example.org",
        ] {
            assert!(check_host(ok).is_ok(), "{ok}");
        }
        assert_eq!(check_host("[::1]").unwrap(), "::1");
        for bad in ["", "a b", "-x.org", "x..org", "host:22", "évil"] {
            assert!(check_host(bad).is_err(), "{bad}");
        }
    }
}
