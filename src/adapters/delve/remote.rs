//! Attaching to `dlv --headless --listen HOST:PORT --accept-multiclient`:
//! that server speaks DAP as well as its own protocol, so the session
//! connects to it directly and attaches in `remote` mode (`dlv dap` itself
//! cannot attach to another server).

use serde_json::{Value, json};

use crate::adapters::{AdapterError, LaunchSpec, Remote, Spawned};

pub fn spawn(spec: &LaunchSpec, remote: &Remote) -> Result<Spawned, AdapterError> {
    Spawned::server(remote, attach_arguments(spec, remote))
}

/// `substitutePath` goes from the client's path (`from`) to the server's
/// (`to`); delve rewrites breakpoints one way and frames the other.
fn attach_arguments(spec: &LaunchSpec, remote: &Remote) -> Value {
    let substitute: Vec<Value> = remote
        .mappings()
        .map(|(r, l)| json!({"from": l, "to": r}))
        .collect();
    json!({
        "request": "attach",
        "mode": "remote",
        "substitutePath": substitute,
        "stopOnEntry": spec.stop_on_entry,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::PathMapping;

    #[test]
    fn mappings_go_to_substitute_path() {
        let spec = LaunchSpec::for_workspace(std::path::Path::new("/ws"));
        let remote = Remote {
            host: "127.0.0.1".into(),
            port: 4040,
            path_mappings: vec![PathMapping {
                local: "/ws".into(),
                remote: "/srv/app".into(),
            }],
            program: None,
        };
        let a = attach_arguments(&spec, &remote);
        assert_eq!(a["mode"], "remote");
        assert_eq!(
            a["substitutePath"],
            json!([{"from": "/ws", "to": "/srv/app"}])
        );
    }
}
