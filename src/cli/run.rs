//! `pairdbg run`: one launch, one viewport, for agents that only have a shell.

use std::time::Duration;

use clap::Args;

use crate::session::handle::WaitOutcome;
use crate::session::validate::Workspace;
use crate::session::{BreakpointRequest, LaunchRequest, Origin, Registry};
use crate::viewport::{Extras, ViewportConfig, render_json, render_text};

#[derive(Debug, Args)]
pub struct RunArgs {
    /// A breakpoint, as FILE:LINE (repeatable).
    #[arg(long = "break", value_name = "FILE:LINE")]
    pub breaks: Vec<String>,
    /// Print the viewport as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub launch: super::launch_flags::LaunchFlags,
    /// Stop at the first line when there is no breakpoint.
    #[arg(long)]
    pub stop_on_entry: bool,
    /// Give up waiting for the first stop after this many milliseconds.
    #[arg(long, default_value_t = 30_000)]
    pub timeout_ms: u64,
    /// The program and its arguments.
    #[arg(
        last = true,
        required_unless_present_any = ["module", "attach", "core"],
        value_name = "PROGRAM [ARGS]"
    )]
    pub program: Vec<String>,
}

pub fn parse_break(s: &str) -> Result<BreakpointRequest, String> {
    let (file, line) = s
        .rsplit_once(':')
        .ok_or_else(|| format!("--break {s}: expected FILE:LINE"))?;
    let line = line
        .parse()
        .map_err(|_| format!("--break {s}: {line:?} is not a line number"))?;
    Ok(BreakpointRequest {
        file: file.to_string(),
        line,
        ..Default::default()
    })
}

pub async fn run(ws: Workspace, args: RunArgs) -> u8 {
    match run_inner(ws, args).await {
        Ok(code) => code,
        Err(e) => {
            eprintln!("pairdbg: {e}");
            1
        }
    }
}

async fn run_inner(ws: Workspace, args: RunArgs) -> Result<u8, String> {
    let breaks = args.breaks.clone();
    let breakpoints = args
        .breaks
        .iter()
        .map(|b| parse_break(b))
        .collect::<Result<Vec<_>, _>>()?;
    let mut program = args.program.into_iter();
    let mut request = LaunchRequest {
        program: program.next(),
        args: program.collect(),
        stop_on_entry: args.stop_on_entry,
        breakpoints,
        ..Default::default()
    };
    args.launch.apply(&mut request);
    let timeout = Duration::from_millis(args.timeout_ms);
    let config = request
        .validate(&ws, timeout)
        .map_err(|e| super::launch_flags::describe(&e, &breaks))?;
    let registry = Registry::default();
    let session = registry.launch(config).await.map_err(|e| e.to_string())?;
    let outcome = session.wait_for_stop(0, timeout).await;
    let cfg = ViewportConfig::default();
    let (snap, code) = match outcome {
        WaitOutcome::Stopped(s) => (s, 0),
        WaitOutcome::Exited(s) => (s, 0),
        WaitOutcome::Failed(s) => (s, 1),
        WaitOutcome::TimedOut(s) | WaitOutcome::Running(s) => {
            eprintln!(
                "pairdbg: no stop within {} ms; the program is still running",
                args.timeout_ms
            );
            (s, 1)
        }
    };
    if args.json {
        let mut v = render_json(&snap, &cfg);
        v["output_tail"] = serde_json::json!(session.output_tail(10));
        say!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        say!(
            "{}",
            render_text(&snap, &cfg, Extras::default()).trim_end_matches('\n')
        );
        if snap.stop.is_none() {
            for l in session.output_tail(10) {
                say!("  | {l}");
            }
        }
    }
    if args.launch.keep_core && snap.stop.as_ref().is_some_and(|s| s.exception.is_some()) {
        let end = let_it_crash(&session, snap.stop_seq, timeout).await;
        say!("{end}");
    }
    let _ = session.terminate(Origin::Agent).await;
    registry.clear();
    drop(session);
    Ok(code)
}

/// `--keep-core` at a crash: the program goes on into its signal, so the
/// kernel writes its core, and the end says where it went. A second
/// crash stop (the signal seen again) is let go on too.
async fn let_it_crash(
    session: &crate::session::SessionHandle,
    mut seq: u64,
    timeout: Duration,
) -> String {
    for _ in 0..3 {
        if let Err(e) = session.resume(Origin::Agent).await {
            return format!("pairdbg: the program was not let go on to write its core: {e}");
        }
        match session.wait_for_stop(seq, timeout).await {
            WaitOutcome::Stopped(s) => seq = s.stop_seq,
            WaitOutcome::Exited(s) => {
                return s
                    .exit
                    .as_ref()
                    .map(|e| e.summary.clone())
                    .unwrap_or_else(|| "The program has exited.".into());
            }
            WaitOutcome::Failed(_) | WaitOutcome::TimedOut(_) | WaitOutcome::Running(_) => break,
        }
    }
    "pairdbg: the program did not end after its crash, so no core was written".into()
}
