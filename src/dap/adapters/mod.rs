//! Adapter specs: how to find, install and spawn each debug adapter.

pub mod debugpy;

use std::path::Path;

#[derive(Debug, Clone, thiserror::Error)]
pub enum AdapterError {
    #[error("{0}")]
    NotFound(String),
    #[error("{what}. Fix it with: {fix}")]
    Missing { what: String, fix: String },
}

#[derive(Debug, Clone)]
pub struct AdapterInfo {
    pub language: &'static str,
    pub name: &'static str,
    pub found: Result<String, String>,
}

/// Every adapter pairdbg knows, with its version or why it is unusable.
pub async fn list(workspace: &Path) -> Vec<AdapterInfo> {
    let python = match debugpy::find_python(None, workspace) {
        Ok(py) => debugpy::version(&py)
            .await
            .map(|v| format!("debugpy {v} ({})", py.display()))
            .map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
    let mut out = vec![AdapterInfo {
        language: "python",
        name: "debugpy",
        found: python,
    }];
    for (language, name, bin, fix) in [
        (
            "c, c++, rust",
            "lldb-dap",
            "lldb-dap-22",
            "apt-get install lldb-22",
        ),
        ("go", "delve", "dlv", "apt-get install delve"),
    ] {
        let found = debugpy::which(bin)
            .or_else(|| debugpy::which(name))
            .map(|p| format!("{} (not yet supported by pairdbg)", p.display()))
            .ok_or_else(|| {
                format!("not found; install with: {fix} (not yet supported by pairdbg)")
            });
        out.push(AdapterInfo {
            language,
            name,
            found,
        });
    }
    out
}
