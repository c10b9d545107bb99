//! The launch flags that the terminal UI and `pairdbg run` share, and the
//! launch errors told in the flags' own names.

use clap::Args;

use crate::session::{LaunchRequest, SessionError};

#[derive(Debug, Clone, Default, Args)]
pub struct LaunchFlags {
    /// Run a Python module (as `python -m MODULE`) instead of a program.
    /// Arguments after `--` go to it.
    #[arg(short = 'm', long = "module", value_name = "MODULE")]
    pub module: Option<String>,
    /// The Python interpreter to debug with.
    #[arg(long, value_name = "PATH")]
    pub python: Option<String>,
    /// The program's language when it cannot be told from the program:
    /// python, c, c++, rust, go, node, javascript, typescript, java, ruby.
    #[arg(long, value_name = "LANG")]
    pub language: Option<String>,
    /// The debug adapter, where not the language's first choice: gdb or
    /// lldb-dap for C, C++ and Rust (Rust takes gdb, C and C++ lldb-dap).
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// The program's working directory (default: the workspace).
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<String>,
    /// An environment variable for the program, as K=V (repeatable).
    #[arg(long = "env", value_name = "K=V", value_parser = parse_env)]
    pub env: Vec<(String, String)>,
    /// Attach to the running process PID, or to the debug server at
    /// HOST:PORT (give --language; for C, C++ and Rust, the local binary as
    /// PROGRAM), instead of launching a program.
    #[arg(long, value_name = "PID|HOST:PORT", value_parser = parse_attach, conflicts_with = "module")]
    pub attach: Option<AttachTo>,
    /// Open the core file CORE that PROGRAM wrote as it crashed: its
    /// frames, variables and memory read as at the crash; nothing runs. A
    /// Python crash dump or a Python interpreter's core needs no PROGRAM.
    #[arg(long, value_name = "CORE", conflicts_with_all = ["attach", "module", "build"])]
    pub core: Option<String>,
    /// Let the program write a core file when it crashes (the core limit
    /// raised; Go's GOTRACEBACK=crash), and say where it went.
    #[arg(long, conflicts_with_all = ["attach", "core"])]
    pub keep_core: bool,
    /// With --attach HOST:PORT: the workspace path LOCAL is REMOTE on the
    /// program's machine (repeatable).
    #[arg(long = "map", value_name = "LOCAL=REMOTE", value_parser = parse_map, requires = "attach")]
    pub maps: Vec<(String, String)>,
    /// Run the processes the program starts without the debugger.
    #[arg(long)]
    pub no_subprocesses: bool,
    /// Run the program on this terminal (another window's or tmux pane's
    /// device, as `tty` prints it there) instead of pairdbg's own, so a
    /// full-screen program can draw and read its keys there.
    #[arg(long, value_name = "DEVICE")]
    pub tty: Option<String>,
    /// A shell command that builds the program, run before the launch and
    /// before every restart; a failed build starts nothing and shows its
    /// first error.
    #[arg(long, value_name = "CMD", conflicts_with = "attach")]
    pub build: Option<String>,
}

/// What `--attach` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttachTo {
    Pid(u32),
    Server { host: String, port: u32 },
}

fn parse_attach(s: &str) -> Result<AttachTo, String> {
    if let Ok(pid) = s.parse::<u32>() {
        return Ok(AttachTo::Pid(pid));
    }
    let (host, port) = s
        .rsplit_once(':')
        .ok_or_else(|| format!("{s:?} is neither a PID nor HOST:PORT"))?;
    let port = port
        .parse::<u32>()
        .map_err(|_| format!("{s:?}: {port:?} is not a port (1 to 65535)"))?;
    Ok(AttachTo::Server {
        host: host.to_string(),
        port,
    })
}

fn parse_map(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((l, r)) if !l.is_empty() && !r.is_empty() => Ok((l.to_string(), r.to_string())),
        _ => Err(format!("{s:?} is not LOCAL=REMOTE")),
    }
}

fn parse_env(s: &str) -> Result<(String, String), String> {
    let (k, v) = s
        .split_once('=')
        .ok_or_else(|| format!("{s:?} is not K=V"))?;
    if k.is_empty() {
        return Err(format!("{s:?} has no variable name before ="));
    }
    Ok((k.to_string(), v.to_string()))
}

impl LaunchFlags {
    /// Puts the flags into `request`; a module given as `-- -m MODULE`
    /// counts as `-m MODULE`, as Python reads it.
    pub fn apply(&self, request: &mut LaunchRequest) {
        if self.module.is_none()
            && request.program.as_deref() == Some("-m")
            && !request.args.is_empty()
        {
            request.module = Some(request.args.remove(0));
            request.program = None;
        }
        if let Some(m) = &self.module {
            // What came after `--` is the module's arguments.
            if let Some(p) = request.program.take() {
                request.args.insert(0, p);
            }
            request.module = Some(m.clone());
        }
        match &self.attach {
            Some(AttachTo::Pid(pid)) => request.attach = Some(*pid),
            Some(AttachTo::Server { host, port }) => {
                request.remote = crate::session::remote::RemoteRequest {
                    host: Some(host.clone()),
                    port: Some(*port),
                    path_mappings: self.maps.clone(),
                };
            }
            None => {}
        }
        if self.core.is_some() {
            request.core = self.core.clone();
        }
        request.keep_core |= self.keep_core;
        for (field, value) in [
            (&mut request.python, &self.python),
            (&mut request.language, &self.language),
            (&mut request.adapter, &self.adapter),
            (&mut request.cwd, &self.cwd),
            (&mut request.tty, &self.tty),
        ] {
            if value.is_some() {
                *field = value.clone();
            }
        }
        request.env.extend(self.env.iter().cloned());
        if self.no_subprocesses {
            request.subprocesses = Some(false);
        }
        if let Some(b) = &self.build {
            request.build = Some(crate::session::build::BuildRequest::shell("build", b));
        }
    }
}

/// The command-line flag that sets a launch field; a breakpoint is named
/// by the `--break` value it came from.
fn flag_for(field: &str, breaks: &[String]) -> String {
    let (head, rest) = match field.split_once(['.', '[']) {
        Some((h, _)) => (h, &field[h.len()..]),
        None => (field, ""),
    };
    let flag = match head {
        "program" => "PROGRAM",
        "module" => "-m",
        "language" => "--language",
        "adapter" => "--adapter",
        "python" => "--python",
        "cwd" => "--cwd",
        "env" => "--env",
        "pid" | "host" | "port" => "--attach",
        "path_mappings" => "--map",
        "tty" => "--tty",
        "build" => "--build",
        "core" => "--core",
        "keep_core" => "--keep-core",
        "breakpoints" => "--break",
        _ => return field.to_string(),
    };
    if head == "breakpoints" {
        // `breakpoints[0].line` → `--break app.py:900`.
        let index = rest
            .trim_start_matches('[')
            .split(']')
            .next()
            .and_then(|i| i.parse::<usize>().ok());
        return match index.and_then(|i| breaks.get(i)) {
            Some(b) => format!("{flag} {b}"),
            None => flag.to_string(),
        };
    }
    flag.to_string()
}

/// A launch error in the command line's terms: its field is the flag that
/// sets it.
pub fn describe(e: &SessionError, breaks: &[String]) -> String {
    match e {
        SessionError::Invalid { field, message } => {
            let message = message
                .replace("pass language", "pass --language")
                .replace(
                    "give program or module, not both",
                    "give PROGRAM or -m MODULE, not both",
                )
                .replace(
                    "give program or module",
                    "give PROGRAM (after --) or -m MODULE",
                )
                .replace("; give program", "; give PROGRAM");
            format!("{}: {message}", flag_for(field, breaks))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_named_by_their_flags() {
        let e = SessionError::invalid("language", "cannot tell; pass language (x)");
        assert_eq!(
            describe(&e, &[]),
            "--language: cannot tell; pass --language (x)"
        );
        let breaks = ["a.py:1".to_string(), "a.py:900".to_string()];
        assert_eq!(flag_for("breakpoints[1].line", &breaks), "--break a.py:900");
        assert_eq!(flag_for("breakpoints[7].line", &breaks), "--break");
        assert_eq!(flag_for("env[K]", &[]), "--env");
        assert_eq!(flag_for("pid", &[]), "--attach");
    }

    #[test]
    fn attach_takes_a_pid_or_a_server() {
        assert_eq!(parse_attach("4242"), Ok(AttachTo::Pid(4242)));
        assert_eq!(
            parse_attach("127.0.0.1:5678"),
            Ok(AttachTo::Server {
                host: "127.0.0.1".into(),
                port: 5678
            })
        );
        assert!(parse_attach("[::1]:5678").is_ok());
        assert!(
            parse_attach("host")
                .unwrap_err()
                .contains("neither a PID nor HOST:PORT")
        );
        assert!(parse_attach("host:x").unwrap_err().contains("not a port"));
        assert_eq!(parse_map(".=/app"), Ok((".".into(), "/app".into())));
        assert!(parse_map("/app").is_err());
    }

    #[test]
    fn dash_m_after_the_separator_is_a_module() {
        let mut r = LaunchRequest {
            program: Some("-m".into()),
            args: vec!["pkg".into(), "x".into()],
            ..Default::default()
        };
        LaunchFlags::default().apply(&mut r);
        assert_eq!(r.module.as_deref(), Some("pkg"));
        assert_eq!(r.program, None);
        assert_eq!(r.args, vec!["x".to_string()]);
    }
}
