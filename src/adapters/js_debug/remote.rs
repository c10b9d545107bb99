//! Attaching to a program started with `node --inspect=HOST:PORT` (or
//! `--inspect-brk`): js-debug runs here, reaches Node's inspector over the
//! network, and asks for a child connection for the program as a launch
//! does.

use serde_json::{Value, json};

use crate::adapters::{AdapterError, LaunchSpec, Remote};

/// js-debug maps one directory pair (`localRoot`, `remoteRoot`).
const MAX_MAPPINGS: usize = 1;

/// How long js-debug retries reaching the inspector: a server that is not
/// there should say so soon.
const INSPECTOR_TIMEOUT_MS: u64 = 5000;

pub fn attach_arguments(spec: &LaunchSpec, remote: &Remote) -> Result<Value, AdapterError> {
    if remote.path_mappings.len() > MAX_MAPPINGS {
        return Err(AdapterError::Unsupported(format!(
            "path_mappings: js-debug maps one directory; {} were given, the limit is {MAX_MAPPINGS}",
            remote.path_mappings.len()
        )));
    }
    let mut args = json!({
        "type": "pwa-node",
        "request": "attach",
        "name": "pairdbg",
        "address": remote.host,
        "port": remote.port,
        "timeout": INSPECTOR_TIMEOUT_MS,
        // Where js-debug resolves `${workspaceFolder}`; TypeScript's source
        // maps are not found without it.
        "__workspaceFolder": spec.workspace,
        "cwd": spec.workspace,
        "skipFiles": ["<node_internals>/**"],
        // A program held by `--inspect-brk` runs on to the breakpoints
        // unless the first line was asked for.
        "continueOnAttach": !spec.stop_on_entry,
        // Its subprocesses' inspectors are on the other machine, out of reach.
        "autoAttachChildProcesses": false,
        "attachExistingChildren": false,
    });
    if let Some((r, l)) = remote.mappings().next() {
        args["localRoot"] = json!(l);
        args["remoteRoot"] = json!(r);
    }
    Ok(args)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::PathMapping;

    fn remote(n: usize) -> Remote {
        Remote {
            host: "127.0.0.1".into(),
            port: 9229,
            path_mappings: (0..n)
                .map(|i| PathMapping {
                    local: format!("/ws/{i}").into(),
                    remote: format!("/app/{i}"),
                })
                .collect(),
            program: None,
        }
    }

    #[test]
    fn the_mapping_goes_to_local_and_remote_root() {
        let spec = LaunchSpec::for_workspace(std::path::Path::new("/ws"));
        let a = attach_arguments(&spec, &remote(1)).unwrap();
        assert_eq!(a["type"], "pwa-node");
        assert_eq!(a["address"], "127.0.0.1");
        assert_eq!(a["port"], 9229);
        assert_eq!(a["localRoot"], "/ws/0");
        assert_eq!(a["remoteRoot"], "/app/0");
        assert_eq!(a["__workspaceFolder"], "/ws");
        let a = attach_arguments(&spec, &remote(0)).unwrap();
        assert!(a.get("localRoot").is_none());
        let err = attach_arguments(&spec, &remote(2)).unwrap_err().to_string();
        assert!(
            err.contains("path_mappings") && err.contains("the limit is 1"),
            "{err}"
        );
    }
}
