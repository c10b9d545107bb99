//! Starting rdbg: `rdbg --open --port=0` runs the program under Ruby with
//! the debugger loaded, takes a free loopback port and says which on
//! stderr (`DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:44093)`),
//! then waits for us. The program shares that stderr, so its lines are
//! sorted from rdbg's as they come. A client that connects before rdbg
//! says `wait for debugger connection` gets its console's text ahead of
//! DAP: the address is passed on only once rdbg says it waits.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU32, Ordering};

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWriteExt, BufReader, DuplexStream};
use tokio::process::Command;

use crate::adapters::{AdapterError, LaunchSpec, ProgramOutput, Spawned, Target, Transport};
use crate::dap::process::AdapterProcess;

const PRELOAD: &str = include_str!("boot/preload.rb");

/// rdbg's lines about itself start so.
const OWN_LINE: &str = "DEBUGGER:";
const ATTACH_LINE: &str = "DEBUGGER: Debugger can attach via";
const WAITS_LINE: &str = "DEBUGGER: wait for debugger connection";

/// Room for a burst of the program's stderr while nobody reads it yet.
const PIPE_BYTES: usize = 64 * 1024;

pub fn spawn(spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
    let program = match &spec.target {
        Target::Program(p) => p,
        other => {
            return Err(AdapterError::Unsupported(format!(
                "rdbg launches Ruby programs (a .rb file), not {other:?}"
            )));
        }
    };
    if program.is_dir() {
        return Err(AdapterError::Unsupported(format!(
            "rdbg runs a Ruby file, and {} is a directory",
            program.display()
        )));
    }
    let rdbg = super::install::find_rdbg()?;
    let ruby = super::install::find_ruby(&rdbg)?;
    let no_runtime =
        |e: std::io::Error| AdapterError::NotFound(format!("no runtime directory: {e}"));
    let hook = crate::paths::install_file("ruby", "preload.rb", PRELOAD).map_err(no_runtime)?;
    let exit_file = exit_file_path().map_err(no_runtime)?;
    let mut cmd = Command::new(&rdbg);
    // `-c`: the command after `--` is run with the debugger loaded (rdbg
    // sets RUBYOPT for it), so our own `-r` goes on Ruby's command line.
    cmd.args(["--open", "--port=0", "--host=127.0.0.1", "-c", "--"])
        .arg(&ruby)
        .arg("-r")
        .arg(&hook)
        .arg(program)
        .args(&spec.args)
        .current_dir(&spec.cwd)
        .envs(spec.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("PAIRDBG_EXIT_FILE", &exit_file)
        // Colour codes would end up in values and output.
        .env("RUBY_DEBUG_NO_COLOR", "true");
    let (process, stdout, stderr) = AdapterProcess::spawn_with_output(cmd, None)
        .map_err(|e| AdapterError::NotFound(format!("cannot start {}: {e}", rdbg.display())))?;
    let (own, program_err) = split_stderr(stderr);
    Ok(Spawned {
        process: Some(process),
        transport: Transport::Announced {
            stdout: Box::pin(own),
            parse: listening_at,
            who: "rdbg",
        },
        program_output: Some(ProgramOutput {
            stdout: Box::pin(stdout),
            stderr: Box::pin(program_err),
        }),
        on_terminal: false,
        // rdbg reads nothing of these: the command line above says it all.
        start: (
            "launch",
            serde_json::json!({"request": "launch", "program": program, "cwd": spec.cwd}),
        ),
        notes: vec![],
        exit_code_file: Some(exit_file),
    })
}

/// A file no other launch of this or another pairdbg writes to.
fn exit_file_path() -> std::io::Result<std::path::PathBuf> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let path = crate::paths::runtime_dir()?.join(format!("ruby-exit-{}-{n}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    Ok(path)
}

/// rdbg's stderr as two streams: its own lines, and the program's.
fn split_stderr(stderr: impl AsyncRead + Send + Unpin + 'static) -> (DuplexStream, DuplexStream) {
    let (mut own_in, own_out) = tokio::io::duplex(PIPE_BYTES);
    let (mut prog_in, prog_out) = tokio::io::duplex(PIPE_BYTES);
    tokio::spawn(async move {
        let mut lines = BufReader::new(stderr);
        let mut line = Vec::new();
        // rdbg's threads print the two lines in either order.
        let mut attach: Option<Vec<u8>> = None;
        let mut waits = false;
        loop {
            line.clear();
            match lines.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if line.starts_with(ATTACH_LINE.as_bytes()) {
                attach = Some(line.clone());
            }
            waits |= line.starts_with(WAITS_LINE.as_bytes());
            if waits && let Some(a) = attach.take() {
                let _ = own_in.write_all(&a).await;
            }
            if line.starts_with(ATTACH_LINE.as_bytes()) {
                continue;
            }
            // A reader gone (the session ended) only stops that stream.
            let _ = match line.starts_with(OWN_LINE.as_bytes()) {
                true => own_in.write_all(&line).await,
                false => prog_in.write_all(&line).await,
            };
        }
    });
    (own_out, prog_out)
}

fn listening_at(line: &str) -> Option<SocketAddr> {
    line.trim()
        .strip_prefix("DEBUGGER: Debugger can attach via TCP/IP (")?
        .strip_suffix(')')?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_address_rdbg_announces() {
        assert_eq!(
            listening_at("DEBUGGER: Debugger can attach via TCP/IP (127.0.0.1:44093)\n"),
            Some("127.0.0.1:44093".parse().unwrap())
        );
        assert_eq!(
            listening_at("DEBUGGER: wait for debugger connection..."),
            None
        );
    }
}
