//! js-debug, for Node.js, JavaScript and TypeScript: finding Node and the
//! installed server, spawning it on a port it announces, the `pwa-node`
//! launch, and the child connection where the program really runs.

mod conditions;
mod functions;
pub mod install;
mod javascript;
mod kill_script;
mod launch;
mod program;
mod pure_calls;
mod remote;
mod tsconfig;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::Value;
use tokio::process::Command;

use super::{
    Adapter, AdapterError, ChildContext, ChildStart, Found, Language, LaunchSpec, Quirks, Spawned,
    Transport, which,
};
use crate::dap::process::AdapterProcess;

pub use javascript::preview;
pub use launch::{EXIT_SHIM, start_arguments};
pub use launch::{NODELAY, PROGRAM_PRELOAD};

pub struct JsDebug;

pub const INSTALL: &str = "pairdbg adapters install node";

static QUIRKS: Quirks = Quirks {
    // js-debug's text comes from VS Code's translation bundles; without
    // one it sends the key.
    message_keys: &[(
        "breakpoint.provisionalBreakpoint",
        "not bound yet: it binds when a script with this line loads",
    )],
    // The launch connection only starts the program; it runs, stops and
    // is read on the child connection js-debug asks for.
    program_on_child: true,
    // Every global of Node: expensive, and never the program's.
    skipped_scopes: &["Global"],
    local_scopes: &["Block:", "Local:"],
    // js-debug has no function breakpoints.
    functions_by_source: true,
    // Each read costs js-debug some 45 ms (docs/benchmarks.md).
    caller_arguments: false,
    hide_internal_variables: true,
    // Its `terminateDebuggee` ends only processes it started itself.
    end_remote_program: Some("process.exit()"),
    exception_info_command: None,
    exception_in_stopped_event: false,
    ends_by_closing: false,
    step_back_unanswered: false,
    disassembles_forward_only: false,
    console_noise: &[
        "Debugger attached.",
        "Waiting for the debugger to disconnect...",
    ],
    ..Quirks::DEFAULT
};

impl Adapter for JsDebug {
    fn name(&self) -> &'static str {
        "js-debug"
    }

    fn languages(&self) -> &'static [&'static str] {
        &["node", "javascript", "typescript"]
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &["node", "pwa-node"]
    }

    fn probe(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        async move {
            let (_, installed) = find()?;
            Ok(Found {
                version: format!("js-debug {}", installed.version),
                path: installed.entry.display().to_string(),
                warning: None,
            })
        }
        .boxed()
    }

    fn install_command(&self, _spec: &LaunchSpec) -> String {
        INSTALL.into()
    }

    fn install(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        blocking(|root| install::install_from_npm(&root))
    }

    fn install_from(&self, file: &Path) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let file = file.to_path_buf();
        blocking(move |root| install::install_release_tarball(&file, &root))
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let (node, installed) = find()?;
        // Installs made before pairdbg added the script get it here.
        if let Err(e) = kill_script::ensure(&installed.entry) {
            tracing::warn!("cannot add js-debug's terminateProcess.sh: {e}");
        }
        let (start, exit_file, notes) = start_arguments(spec)?;
        let mut cmd = Command::new(&node);
        // The user's NODE_OPTIONS (a TypeScript loader) are the program's,
        // passed in its launch; js-debug itself runs without them.
        cmd.env_remove("NODE_OPTIONS");
        if spec.nodelay {
            let preload = crate::paths::install_file("node", "nodelay.cjs", launch::NODELAY)
                .map_err(|e| AdapterError::NotFound(format!("no runtime directory: {e}")))?;
            cmd.arg("--require").arg(preload);
        }
        // Port 0: the server takes a free one and says which.
        cmd.arg(&installed.entry)
            .args(["0", "127.0.0.1"])
            .current_dir(&spec.cwd);
        let (process, _stdin, stdout) = AdapterProcess::spawn(cmd)
            .map_err(|e| AdapterError::NotFound(format!("cannot start js-debug: {e}")))?;
        Ok(Spawned {
            process: Some(process),
            transport: Transport::Announced {
                stdout: Box::pin(stdout),
                parse: listening_at,
                who: "js-debug",
            },
            program_output: None,
            on_terminal: false,
            start,
            notes,
            exit_code_file: exit_file,
        })
    }

    fn default_exception_filters(&self) -> &'static [&'static str] {
        &["uncaught"]
    }

    fn every_exception_filters(&self) -> &'static [&'static str] {
        &["all", "uncaught"]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    fn language(&self) -> &'static dyn Language {
        &javascript::JavaScript
    }

    fn check_condition(
        &self,
        _spec: &LaunchSpec,
        condition: &str,
    ) -> Option<BoxFuture<'static, Result<(), String>>> {
        let node = which("node")?;
        Some(conditions::check(node, condition.to_string()).boxed())
    }

    fn condition_error(&self, output: &str) -> Option<(String, String)> {
        conditions::error(output)
    }

    /// Node's own lines about the inspector, and the command line js-debug
    /// echoes as the launch's first console line.
    fn is_own_output(&self, line: &str) -> bool {
        let l = line.trim_end();
        l == "Debugger attached."
            || l == "Waiting for the debugger to disconnect..."
            || l.starts_with("Debugger listening on ws://")
            || l == "For help, see: https://nodejs.org/en/docs/inspector"
            || is_echoed_command(l)
    }

    /// The child asks for the same server, on a socket of its own, with the
    /// configuration js-debug gave as it is.
    fn child_connection(
        &self,
        ctx: &ChildContext<'_>,
        arguments: &Value,
    ) -> Result<ChildStart, AdapterError> {
        child_start(ctx.parent_addr, arguments)
    }
}

/// Node on PATH and the installed server.
fn find() -> Result<(PathBuf, install::Installed), AdapterError> {
    let node = which("node").ok_or_else(|| AdapterError::Missing {
        what: "node is not on PATH".into(),
        fix: "apt-get install -y nodejs npm".into(),
    })?;
    let root = install::adapters_dir()?;
    let installed = install::find_installed(&root).ok_or_else(|| AdapterError::Missing {
        what: format!("js-debug is not installed in {}", root.display()),
        fix: INSTALL.into(),
    })?;
    Ok((node, installed))
}

fn blocking<F>(f: F) -> BoxFuture<'static, Result<Found, AdapterError>>
where
    F: FnOnce(PathBuf) -> Result<install::Installed, AdapterError> + Send + 'static,
{
    async move {
        let root = install::adapters_dir()?;
        let installed = tokio::task::spawn_blocking(move || f(root))
            .await
            .map_err(|e| AdapterError::NotFound(format!("the install stopped: {e}")))??;
        Ok(Found {
            version: format!("js-debug {}", installed.version),
            path: installed.entry.display().to_string(),
            warning: None,
        })
    }
    .boxed()
}

/// `Debug server listening at 127.0.0.1:40123`: the first line the server
/// prints.
pub fn listening_at(line: &str) -> Option<SocketAddr> {
    let rest = line.trim().strip_prefix("Debug server listening at ")?;
    if let Ok(addr) = rest.parse() {
        return Some(addr);
    }
    let (host, port) = rest.rsplit_once(':')?;
    let host = host.trim_matches(['[', ']']);
    let ip = if host == "localhost" {
        "127.0.0.1"
    } else {
        host
    };
    Some(SocketAddr::new(ip.parse().ok()?, port.parse().ok()?))
}

/// `/usr/bin/node ./prog.js`: js-debug's echo of the command it ran.
fn is_echoed_command(line: &str) -> bool {
    let first = line.split(' ').next().unwrap_or_default();
    first.starts_with('/')
        && Path::new(first)
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("node"))
}

pub fn child_start(
    parent_addr: Option<SocketAddr>,
    arguments: &Value,
) -> Result<ChildStart, AdapterError> {
    let addr = parent_addr.ok_or_else(|| {
        AdapterError::Unsupported("js-debug asked for a child, but its address is unknown".into())
    })?;
    let command = match arguments["request"].as_str() {
        Some("launch") => "launch",
        Some("attach") => "attach",
        other => {
            return Err(AdapterError::Unsupported(format!(
                "startDebugging: request must be \"launch\" or \"attach\", not {other:?}"
            )));
        }
    };
    let configuration = arguments
        .get("configuration")
        .filter(|c| c.is_object())
        .cloned()
        .ok_or_else(|| {
            AdapterError::Unsupported("startDebugging: configuration must be an object".into())
        })?;
    let name = configuration["name"]
        .as_str()
        .unwrap_or("js-debug child")
        .to_string();
    Ok(ChildStart {
        transport: Transport::Tcp(addr),
        start: (command, configuration),
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_announced_port_is_read_from_the_first_line() {
        let a = listening_at("Debug server listening at 127.0.0.1:40123\n").unwrap();
        assert_eq!(a, "127.0.0.1:40123".parse().unwrap());
        let a = listening_at("Debug server listening at ::1:5000").unwrap();
        assert_eq!(a, "[::1]:5000".parse().unwrap());
        assert_eq!(listening_at("Debugger attached."), None);
        assert_eq!(listening_at("Debug server listening at nowhere"), None);
    }

    #[test]
    fn the_child_gets_the_configuration_as_given() {
        let args = json!({"request": "launch", "configuration": {
            "type": "pwa-node", "name": "prog.js [18436]", "__pendingTargetId": "abc"}});
        let addr: SocketAddr = "127.0.0.1:4000".parse().unwrap();
        let c = child_start(Some(addr), &args).unwrap();
        assert!(matches!(c.transport, Transport::Tcp(a) if a == addr));
        assert_eq!(c.start.0, "launch");
        assert_eq!(c.start.1, args["configuration"]);
        assert_eq!(c.name, "prog.js [18436]");
        let err = child_start(Some(addr), &json!({"request": "x", "configuration": {}}))
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("request must be"), "{err}");
        assert!(child_start(None, &args).is_err());
    }

    #[test]
    fn nodes_own_lines_are_not_the_programs() {
        let j = JsDebug;
        assert!(j.is_own_output("Debugger attached.\n"));
        assert!(j.is_own_output("Waiting for the debugger to disconnect...\n"));
        assert!(j.is_own_output("/usr/bin/node ./prog.js\n"));
        assert!(!j.is_own_output("start 3 spike\n"));
        assert!(!j.is_own_output("/tmp/out.txt written\n"));
    }
}
