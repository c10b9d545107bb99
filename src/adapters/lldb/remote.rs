//! Attaching to a gdb-remote server (`lldb-server gdbserver HOST:PORT --
//! PROG`, or `gdbserver`): lldb-dap runs here and connects to it, reading
//! symbols from the local copy of the program.

use serde_json::{Value, json};

use crate::adapters::Remote;

/// `sourceMap` pairs a path the debug information names (the remote
/// build's) with the workspace's: frames read local files, and breakpoints
/// on local files find the remote lines.
pub fn attach_arguments(remote: &Remote, init_commands: Vec<String>) -> Value {
    let source_map: Vec<Value> = remote.mappings().map(|(r, l)| json!([r, l])).collect();
    let mut args = json!({
        "gdb-remote-port": remote.port,
        "gdb-remote-hostname": remote.host,
        "sourceMap": source_map,
        "initCommands": init_commands,
    });
    if let Some(p) = &remote.program {
        args["program"] = json!(p);
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::PathMapping;

    #[test]
    fn mappings_go_to_source_map() {
        let remote = Remote {
            host: "127.0.0.1".into(),
            port: 7000,
            path_mappings: vec![PathMapping {
                local: "/ws".into(),
                remote: "/build".into(),
            }],
            program: Some("/ws/prog".into()),
        };
        let a = attach_arguments(&remote, vec![]);
        assert_eq!(a["gdb-remote-port"], 7000);
        assert_eq!(a["sourceMap"], json!([["/build", "/ws"]]));
        assert_eq!(a["program"], "/ws/prog");
    }
}
