//! The `runInTerminal` reverse request: the adapter asks us to start the
//! program (or its launcher) in a terminal, and it starts in the session's.

use serde_json::{Value, json};

use crate::adapters::ProgramStdio;
use crate::dap::client::{ReverseHandler, default_reverse_handler};
use crate::dap::envelope::Request;
use crate::dap::keeper;
use crate::dap::process::PidTracker;

/// Starts a child session from a `startDebugging` request's arguments.
pub type StartDebugging = std::sync::Arc<dyn Fn(Value) -> Result<(), String> + Send + Sync>;

/// Answers `runInTerminal` by starting the command on `stdio`, recorded in
/// `tracker` so it ends with the adapter, and `startDebugging` by handing
/// it to `start_debugging`; other requests as by default.
pub fn reverse_handler(
    stdio: Option<ProgramStdio>,
    tracker: Option<PidTracker>,
    start_debugging: Option<StartDebugging>,
) -> ReverseHandler {
    let fallback = default_reverse_handler();
    let terminal = stdio.zip(tracker);
    if terminal.is_none() && start_debugging.is_none() {
        return fallback;
    }
    std::sync::Arc::new(move |req: &Request| {
        match (req.command.as_str(), &terminal, &start_debugging) {
            ("runInTerminal", Some((stdio, tracker)), _) => {
                let pid = start(req.arguments.as_ref().unwrap_or(&Value::Null), stdio)?;
                tracker.track(pid as i32);
                Ok(json!({"processId": pid}))
            }
            ("startDebugging", _, Some(start_child)) => {
                start_child(req.arguments.clone().unwrap_or(Value::Null))?;
                Ok(json!({}))
            }
            _ => fallback(req),
        }
    })
}

fn start(args: &Value, stdio: &ProgramStdio) -> Result<u32, String> {
    let argv: Vec<&str> = args
        .get("args")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some((program, rest)) = argv.split_first() else {
        return Err("runInTerminal: `args` is empty".into());
    };
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(rest);
    if let Some(cwd) = args
        .get("cwd")
        .and_then(Value::as_str)
        .filter(|c| !c.is_empty())
    {
        cmd.current_dir(cwd);
    }
    for (k, v) in args
        .get("env")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        match v.as_str() {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let [stdin, stdout, stderr] = stdio
        .open()
        .map_err(|e| format!("runInTerminal: cannot open the program's terminal: {e}"))?;
    let cannot_start = |e: std::io::Error| format!("runInTerminal: cannot start {program}: {e}");
    // Through the keeper, as adapters are: what the program starts ends
    // with it even if pairdbg is killed.
    let mut launch = keeper::prepare(cmd).map_err(cannot_start)?;
    let cmd = launch.command();
    cmd.stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .kill_on_drop(true);
    // SAFETY: setsid and ioctl are async-signal-safe; nothing else runs
    // between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            // A session of its own with the terminal as its controlling one,
            // so the program sees a real terminal (job control, Ctrl-C).
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::ioctl(0, libc::TIOCSCTTY, 0);
            Ok(())
        });
    }
    let (mut child, lifeline) = launch.spawn().map_err(cannot_start)?;
    let pid = child
        .id()
        .ok_or("runInTerminal: the program ended at once")?;
    // Reaped here; killed with the adapter through its tracker.
    tokio::spawn(async move {
        let _ = child.wait().await;
        drop(lifeline);
        crate::dap::strays::sweep();
    });
    Ok(pid)
}
