//! Attaching to a program started under `python -m debugpy --listen
//! HOST:PORT`: that command runs debugpy's own adapter, which speaks DAP on
//! the port, so the session connects to it directly and spawns nothing.

use serde_json::{Value, json};

use crate::adapters::{AdapterError, LaunchSpec, Remote, Spawned};

pub fn spawn(spec: &LaunchSpec, remote: &Remote) -> Result<Spawned, AdapterError> {
    Spawned::server(remote, attach_arguments(spec, remote))
}

/// `connect` names the server the adapter already serves; debugpy then
/// joins its running program. `pathMappings` turn remote paths into
/// workspace ones and back.
fn attach_arguments(spec: &LaunchSpec, remote: &Remote) -> Value {
    let mappings: Vec<Value> = remote
        .mappings()
        .map(|(r, l)| json!({"localRoot": l, "remoteRoot": r}))
        .collect();
    json!({
        "type": "debugpy",
        "request": "attach",
        "connect": {"host": remote.host, "port": remote.port},
        "pathMappings": mappings,
        "justMyCode": spec.just_my_code,
        // Subprocesses on another machine would ask us to connect there.
        "subProcess": false,
        "showReturnValue": true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::PathMapping;

    #[test]
    fn mappings_go_to_path_mappings() {
        let spec = LaunchSpec::for_workspace(std::path::Path::new("/ws"));
        let remote = Remote {
            host: "127.0.0.1".into(),
            port: 5678,
            path_mappings: vec![PathMapping {
                local: "/ws/src".into(),
                remote: "/app".into(),
            }],
            program: None,
        };
        let a = attach_arguments(&spec, &remote);
        assert_eq!(a["connect"], json!({"host": "127.0.0.1", "port": 5678}));
        assert_eq!(
            a["pathMappings"],
            json!([{"localRoot": "/ws/src", "remoteRoot": "/app"}])
        );
    }
}
