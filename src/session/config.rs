//! What a launch needs, validated once at the edge.

use std::path::PathBuf;
use std::time::Duration;

use super::error::SessionError;
use super::types::{BreakpointKind, TraceLimits};
use super::validate::{self, Workspace};
use crate::adapters::{self, AdapterRef, LaunchSpec, Target};

/// A launch as a controller asks for it: raw strings, not yet trusted.
#[derive(Debug, Clone, Default)]
pub struct LaunchRequest {
    pub program: Option<String>,
    pub module: Option<String>,
    pub args: Vec<String>,
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    pub language: Option<String>,
    /// The adapter by name (`gdb`, `lldb-dap`), where not the language's
    /// first choice.
    pub adapter: Option<String>,
    pub python: Option<String>,
    pub stop_on_entry: bool,
    pub breakpoints: Vec<BreakpointRequest>,
    pub exception_filters: Option<Vec<String>>,
    /// A running process to attach to, by pid.
    pub attach: Option<u32>,
    /// A core file to read, with `program` the binary that wrote it.
    pub core: Option<String>,
    /// The program may write a core file when it crashes.
    pub keep_core: bool,
    /// A debug server to attach to, maybe on another machine.
    pub remote: super::remote::RemoteRequest,
    /// Whether ending an attach ends the program too (default: it runs on).
    pub terminate_debuggee: Option<bool>,
    /// Debug only the program's own code (default); off, breakpoints bind
    /// and steps enter the standard library and installed packages too.
    pub just_my_code: Option<bool>,
    /// Debug the processes the program starts, each as a child session
    /// (default); off, they run without the debugger.
    pub subprocesses: Option<bool>,
    /// A terminal for the program's stdin, stdout and stderr instead of
    /// the session's own (another window, where a full-screen program can
    /// draw): its device path.
    pub tty: Option<String>,
    /// A build to run before every launch and restart.
    pub build: Option<super::build::BuildRequest>,
    /// Flags for the build the adapter runs itself (launch.json's `buildFlags`).
    pub build_flags: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct BreakpointRequest {
    /// Empty for a function breakpoint.
    pub file: String,
    /// 0 when `statement` or `function` places it.
    pub line: i64,
    /// A function to stop on entry to, instead of a file and line.
    pub function: Option<String>,
    /// A line's text: the breakpoint goes on the line that reads so (the
    /// one nearest `line` when several do) and follows it across edits.
    pub statement: Option<String>,
    /// The text `line` must read, or the breakpoint is refused.
    pub expected_content: Option<String>,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
    /// Makes it a tracepoint with these limits (a log message alone does too).
    pub trace: Option<TraceLimits>,
}

#[derive(Debug, Clone)]
pub struct BreakpointSpec {
    pub kind: BreakpointKind,
    pub function: Option<String>,
    pub file: PathBuf,
    pub line: u64,
    pub statement: Option<String>,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
    pub trace: Option<TraceLimits>,
    pub resolved: Option<String>,
}

/// The longest condition, log message or statement accepted.
const MAX_TEXT_CHARS: usize = 4096;

#[derive(Debug, Clone)]
pub struct LaunchConfig {
    pub program: Option<PathBuf>,
    pub module: Option<String>,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub python: Option<String>,
    pub stop_on_entry: bool,
    pub breakpoints: Vec<BreakpointSpec>,
    /// Indices into `breakpoints` of those that start switched off.
    pub start_disabled: Vec<usize>,
    pub exception_filters: Option<Vec<String>>,
    pub workspace: Workspace,
    pub request_timeout: Duration,
    /// How long the adapter may take to start (`initialize`, then `launch`
    /// or `attach`): the caller's wait when it gave a longer one, since a
    /// build or a loaded machine can take longer than any one request.
    pub start_timeout: Duration,
    /// The adapter's latency fixes; off only to measure them.
    pub nodelay: bool,
    /// The adapter that debugs this program's language.
    pub adapter: AdapterRef,
    /// Why the language's first choice of adapter was not taken.
    pub adapter_note: Option<&'static str>,
    /// A running process to attach to instead of launching.
    pub attach_pid: Option<u32>,
    /// A debug server to attach to instead of launching.
    pub remote: Option<crate::adapters::Remote>,
    /// A core file read instead of a program run: nothing runs.
    pub core: Option<PathBuf>,
    /// The program may write a core file when it crashes, and its end
    /// says where the kernel put it.
    pub keep_core: bool,
    /// An attach ends its program with the session.
    pub terminate_debuggee: bool,
    /// Whose are the launch's breakpoints.
    pub origin: super::types::Origin,
    pub just_my_code: bool,
    /// The program's subprocesses are debugged as child sessions.
    pub subprocesses: bool,
    /// The program's own terminal, once the session has made it.
    pub stdio: Option<crate::adapters::ProgramStdio>,
    /// The terminal the person named for the program (`--tty`), used
    /// instead of the session's own.
    pub tty: Option<PathBuf>,
    /// Runs before every launch and restart; a failed build starts nothing.
    pub build: Option<super::build::BuildStep>,
    /// Flags for the build the adapter runs itself (Go's `-tags=x`).
    pub build_flags: Option<String>,
}

impl LaunchConfig {
    /// The launch in the adapters' terms.
    pub fn spec(&self) -> LaunchSpec {
        let target = match (&self.remote, &self.attach_pid, &self.module, &self.program) {
            _ if self.core.is_some() => Target::Core {
                core: self.core.clone().unwrap_or_default(),
                program: self.program.clone().unwrap_or_default(),
            },
            (Some(r), ..) => Target::Remote(r.clone()),
            (None, Some(pid), _, _) => Target::Attach(*pid),
            (None, None, Some(m), _) => Target::Module(m.clone()),
            (None, None, None, Some(p)) => Target::Program(p.clone()),
            (None, None, None, None) => Target::Program(self.workspace.root.clone()),
        };
        LaunchSpec {
            target,
            args: self.args.clone(),
            cwd: self.cwd.clone(),
            env: self.env.clone(),
            stop_on_entry: self.stop_on_entry,
            interpreter: self.python.clone(),
            workspace: self.workspace.root.clone(),
            nodelay: self.nodelay,
            just_my_code: self.just_my_code,
            subprocesses: self.subprocesses,
            stdio: self.stdio.clone(),
            build_flags: self.build_flags.clone(),
            keep_core: self.keep_core,
        }
    }

    /// Whether the program was there before the session, which found it
    /// (a core file's too: the session starts none).
    pub fn is_attach(&self) -> bool {
        self.attach_pid.is_some() || self.remote.is_some() || self.core.is_some()
    }

    /// Whether the session reads a core file, where nothing runs.
    pub fn is_core(&self) -> bool {
        self.core.is_some()
    }

    /// Whether ending the session ends the program.
    pub fn ends_debuggee(&self) -> bool {
        !self.is_attach() || self.terminate_debuggee
    }

    pub fn display_name(&self) -> String {
        if let Some(r) = &self.remote {
            return r.address();
        }
        if let Some(pid) = self.attach_pid {
            return format!("pid {pid}");
        }
        if let Some(c) = &self.core {
            let c = c.strip_prefix(&self.workspace.root).unwrap_or(c);
            return format!("core {}", c.display());
        }
        match (&self.program, &self.module) {
            (_, Some(m)) => format!("-m {m}"),
            (Some(p), _) => p
                .strip_prefix(&self.workspace.root)
                .unwrap_or(p)
                .display()
                .to_string(),
            _ => "?".into(),
        }
    }
}

impl BreakpointRequest {
    pub fn validate(&self, ws: &Workspace) -> Result<BreakpointSpec, SessionError> {
        for (field, text) in [
            ("condition", &self.condition),
            ("log_message", &self.log_message),
            ("statement", &self.statement),
            ("expected_content", &self.expected_content),
            ("function", &self.function),
        ] {
            if let Some(t) = text
                && t.chars().count() > MAX_TEXT_CHARS
            {
                return Err(SessionError::invalid(
                    field,
                    format!(
                        "{} characters; the limit is {MAX_TEXT_CHARS}",
                        t.chars().count()
                    ),
                ));
            }
        }
        if let Some(h) = &self.hit_condition {
            let t = h.trim().trim_start_matches([' ', '>', '=', '%']).trim();
            if t.parse::<u64>().is_err() {
                return Err(SessionError::invalid(
                    "hit_count",
                    format!("{h:?} is not a count; use a number such as 3, or >=3 or %3"),
                ));
            }
        }
        let condition = self.condition.clone().filter(|c| !c.trim().is_empty());
        let hit_condition = self.hit_condition.clone().filter(|c| !c.trim().is_empty());
        let log_message = self.log_message.clone().filter(|c| !c.is_empty());
        let trace = match (&self.trace, &log_message) {
            (Some(t), _) => Some(t.clone()),
            (None, Some(_)) => Some(TraceLimits::default()),
            (None, None) => None,
        };
        if let Some(f) = &self.function {
            if f.trim().is_empty() {
                return Err(SessionError::invalid("function", "the name is empty"));
            }
            if !self.file.is_empty() || trace.is_some() {
                return Err(SessionError::invalid(
                    "function",
                    "give function, or file and line, not both",
                ));
            }
            return Ok(BreakpointSpec {
                kind: BreakpointKind::Function,
                function: Some(f.trim().to_string()),
                file: PathBuf::new(),
                line: 0,
                statement: None,
                condition,
                hit_condition,
                log_message: None,
                trace: None,
                resolved: None,
            });
        }
        let file = ws.resolve_file("file", &self.file)?;
        let statement = self
            .statement
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty());
        let line = match statement {
            Some(st) => {
                let text = read_lines("statement", &file, &self.file)?;
                let near = (self.line > 0).then_some(self.line as u64);
                statement_line(&text, st, near).ok_or_else(|| {
                    SessionError::invalid(
                        "statement",
                        format!("no line of {} reads {st:?}", self.file),
                    )
                })?
            }
            None => validate::check_line("line", &file, self.line, &self.file)?,
        };
        if let Some(expected) = &self.expected_content {
            let text = read_lines("expected_content", &file, &self.file)?;
            let actual = text.get(line as usize - 1).map(|l| l.trim()).unwrap_or("");
            if actual != expected.trim() {
                return Err(SessionError::invalid(
                    "expected_content",
                    format!(
                        "line {line} of {} reads {actual:?}, not {:?}; nothing was set",
                        self.file,
                        expected.trim()
                    ),
                ));
            }
        }
        Ok(BreakpointSpec {
            kind: if trace.is_some() {
                BreakpointKind::Tracepoint
            } else {
                BreakpointKind::Blocking
            },
            function: None,
            file,
            line,
            statement: statement.map(str::to_string),
            condition,
            hit_condition,
            log_message,
            trace,
            resolved: None,
        })
    }
}

impl LaunchRequest {
    /// The core file, checked: it needs the program that wrote it, and
    /// neither a process nor a debug server besides.
    fn core_file(
        &self,
        ws: &Workspace,
        remote_given: bool,
    ) -> Result<Option<PathBuf>, SessionError> {
        let Some(raw) = &self.core else {
            return Ok(None);
        };
        if self.attach.is_some() || remote_given {
            return Err(SessionError::invalid(
                "core",
                "give core, or an attach, not both: a core file is no running process",
            ));
        }
        if self.module.is_some() {
            return Err(SessionError::invalid(
                "module",
                "a core file is read with its program's binary; give program, not module",
            ));
        }
        let path = ws.resolve_program("core", raw)?;
        if !path.is_file() {
            return Err(SessionError::invalid(
                "core",
                format!("{raw} is a directory, not a core file"),
            ));
        }
        // A Python dump holds its sources; a native core needs its binary.
        if self.program.is_none() && reader_of(&path).is_none() {
            return Err(SessionError::invalid(
                "program",
                "a core file needs the program that wrote it; give program (its binary)",
            ));
        }
        Ok(Some(path))
    }
}

fn read_lines(
    field: &str,
    file: &std::path::Path,
    shown: &str,
) -> Result<Vec<String>, SessionError> {
    std::fs::read_to_string(file)
        .map(|s| s.lines().map(str::to_string).collect())
        .map_err(|e| SessionError::invalid(field, format!("cannot read {shown}: {e}")))
}

/// The 1-based line whose text is `statement` (spaces at either end aside),
/// the one nearest `near` when several are.
pub fn statement_line(lines: &[String], statement: &str, near: Option<u64>) -> Option<u64> {
    let statement = statement.trim();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.trim() == statement)
        .map(|(i, _)| i as u64 + 1)
        .min_by_key(|l| near.map(|n| l.abs_diff(n)).unwrap_or(0))
}

/// The adapter that reads `core` on its own, without the program's binary:
/// a Python crash dump, or the core a Python interpreter wrote.
fn reader_of(core: &std::path::Path) -> Option<AdapterRef> {
    adapters::post_mortem_reader(core, super::core_file::command(core).as_deref())
}

/// How long one adapter request may take, unless a launch says otherwise.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);

impl LaunchRequest {
    pub fn validate(
        &self,
        ws: &Workspace,
        request_timeout: Duration,
    ) -> Result<LaunchConfig, SessionError> {
        let remote_given = self.remote.is_given();
        let core = self.core_file(ws, remote_given)?;
        // A core an interpreter wrote is its language's, whatever its binary's.
        let reader = core.as_deref().and_then(reader_of);
        if remote_given && self.attach.is_some() {
            return Err(SessionError::invalid(
                "pid",
                "give pid, or host and port, not both",
            ));
        }
        if remote_given && self.module.is_some() {
            return Err(SessionError::invalid(
                "module",
                "a remote attach takes no module; the debug server runs the program",
            ));
        }
        let program = match (&self.program, &self.module, self.attach) {
            // A remote program's local copy, where native symbols are read.
            (Some(p), None, None) if remote_given => Some(ws.resolve_program("program", p)?),
            (None, None, None) if remote_given => None,
            (Some(_), Some(_), _) => {
                return Err(SessionError::invalid(
                    "program",
                    "give program or module, not both",
                ));
            }
            (Some(_), _, Some(_)) | (_, Some(_), Some(_)) => {
                return Err(SessionError::invalid(
                    "pid",
                    "attach to a process, or launch a program, not both",
                ));
            }
            (None, None, None) if self.build.as_ref().is_some_and(|b| b.cargo) => None,
            (None, None, None) if reader.is_some() => None,
            (None, None, None) => {
                return Err(SessionError::invalid("program", "give program or module"));
            }
            (None, None, Some(pid)) => {
                if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
                    return Err(SessionError::invalid(
                        "pid",
                        format!("no process {pid} is running"),
                    ));
                }
                None
            }
            // The build makes it: it need not be there yet.
            (Some(p), None, None) if self.build.is_some() => {
                Some(ws.resolve_program("program", p).or_else(|e| {
                    let made = ws.resolve_path("program", p)?;
                    if made.exists() { Err(e) } else { Ok(made) }
                })?)
            }
            (Some(p), None, None) => Some(ws.resolve_program("program", p)?),
            _ => None,
        };
        let language = match (&self.language, &program) {
            (Some(l), _) => l.to_lowercase(),
            (None, _) if remote_given => {
                return Err(SessionError::invalid(
                    "language",
                    format!(
                        "a remote attach needs language (nothing here tells it); pairdbg debugs {}",
                        adapters::supported_languages().join(", ")
                    ),
                ));
            }
            (None, _) if let Some(r) = reader => r.languages()[0].into(),
            (None, Some(p)) => adapters::infer_language(p)
                .ok_or_else(|| {
                    SessionError::invalid(
                        "language",
                        format!(
                            "cannot tell the language of {}; pass language (pairdbg debugs {})",
                            self.program.as_deref().unwrap_or_default(),
                            adapters::supported_languages().join(", ")
                        ),
                    )
                })?
                .to_string(),
            (None, None) if self.module.is_some() => "python".into(),
            (None, None) => {
                let pid = self.attach.unwrap_or_default();
                adapters::infer_process_language(pid)
                    .ok_or_else(|| {
                        SessionError::invalid(
                            "language",
                            format!(
                                "cannot tell the language of process {pid}; pass language (pairdbg debugs {})",
                                adapters::supported_languages().join(", ")
                            ),
                        )
                    })?
                    .to_string()
            }
        };
        let named = match self.adapter.as_deref() {
            None => reader.map(|r| r.name()),
            named => named,
        };
        let chosen = adapters::choose(&language, named).map_err(|m| {
            let field = if self.adapter.is_some() {
                "adapter"
            } else {
                "language"
            };
            SessionError::invalid(field, m)
        })?;
        let adapter = chosen.adapter;
        let module = match &self.module {
            Some(m) => {
                if !adapter.language().runs_modules() {
                    return Err(SessionError::invalid(
                        "module",
                        format!("{language} programs are not run as modules; give program"),
                    ));
                }
                if m.is_empty()
                    || !m
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                {
                    return Err(SessionError::invalid(
                        "module",
                        format!("{m:?} is not a module name"),
                    ));
                }
                Some(m.clone())
            }
            None => None,
        };
        let remote = if remote_given {
            Some(self.remote.validate(ws, program.clone())?)
        } else {
            None
        };
        let program = if remote.is_some() { None } else { program };
        validate::check_args(&self.args)?;
        validate::check_env(&self.env)?;
        let tty = match &self.tty {
            Some(t) => Some(super::tty::check(t)?),
            None => None,
        };
        let cwd = match &self.cwd {
            Some(c) => ws.resolve_dir("cwd", c)?,
            None => ws.root.clone(),
        };
        if self.keep_core && (core.is_some() || remote.is_some() || self.attach.is_some()) {
            return Err(SessionError::invalid(
                "keep_core",
                "only a launched program writes a core; this session launches none",
            ));
        }
        if core.is_some() && !adapter.opens_core_files() {
            return Err(SessionError::invalid(
                "core",
                format!(
                    "{} opens no core files; pairdbg reads cores of C, C++, Rust and Go programs, and coredumpy's dumps of Python programs",
                    adapter.name()
                ),
            ));
        }
        let build = match &self.build {
            Some(_) if core.is_some() => {
                return Err(SessionError::invalid(
                    "build",
                    "a core file runs no build; the program already crashed",
                ));
            }
            Some(_) if remote.is_some() || self.attach.is_some() => {
                return Err(SessionError::invalid(
                    "build",
                    "an attach runs no build; the program is already running",
                ));
            }
            Some(b) => Some(b.validate(ws, &cwd)?),
            None => None,
        };
        let breakpoints = self
            .breakpoints
            .iter()
            .enumerate()
            .map(|(i, b)| {
                b.validate(ws).map_err(|e| match e {
                    SessionError::Invalid { field, message } => SessionError::Invalid {
                        field: format!("breakpoints[{i}].{field}"),
                        message,
                    },
                    other => other,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LaunchConfig {
            program,
            module,
            args: self.args.clone(),
            cwd,
            env: self.env.clone(),
            python: self.python.clone(),
            stop_on_entry: self.stop_on_entry && core.is_none(),
            breakpoints,
            start_disabled: vec![],
            exception_filters: self.exception_filters.clone(),
            workspace: ws.clone(),
            request_timeout,
            start_timeout: request_timeout,
            nodelay: std::env::var_os("PAIRDBG_ADAPTER_NAGLE").is_none(),
            adapter,
            adapter_note: chosen.note,
            attach_pid: self.attach,
            remote,
            keep_core: self.keep_core,
            core,
            terminate_debuggee: self.terminate_debuggee.unwrap_or(false),
            origin: super::types::Origin::Agent,
            just_my_code: self.just_my_code.unwrap_or(true),
            subprocesses: self.subprocesses.unwrap_or(true),
            stdio: None,
            tty,
            build,
            build_flags: self.build_flags.clone(),
        })
    }
}
