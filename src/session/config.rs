//! What a launch needs, validated once at the edge.

use std::path::PathBuf;
use std::time::Duration;

use super::error::SessionError;
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
    pub python: Option<String>,
    pub stop_on_entry: bool,
    pub breakpoints: Vec<BreakpointRequest>,
    pub exception_filters: Option<Vec<String>>,
    /// A running process to attach to, by pid.
    pub attach: Option<u32>,
}

#[derive(Debug, Clone, Default)]
pub struct BreakpointRequest {
    pub file: String,
    pub line: i64,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
}

#[derive(Debug, Clone)]
pub struct BreakpointSpec {
    pub file: PathBuf,
    pub line: u64,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
}

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
    pub exception_filters: Option<Vec<String>>,
    pub workspace: Workspace,
    pub request_timeout: Duration,
    /// The adapter's latency fixes; off only to measure them.
    pub nodelay: bool,
    /// The adapter that debugs this program's language.
    pub adapter: AdapterRef,
    /// A running process to attach to instead of launching.
    pub attach_pid: Option<u32>,
    /// Whose are the launch's breakpoints.
    pub origin: super::types::Origin,
}

impl LaunchConfig {
    /// The launch in the adapters' terms.
    pub fn spec(&self) -> LaunchSpec {
        let target = match (&self.attach_pid, &self.module, &self.program) {
            (Some(pid), _, _) => Target::Attach(*pid),
            (None, Some(m), _) => Target::Module(m.clone()),
            (None, None, Some(p)) => Target::Program(p.clone()),
            (None, None, None) => Target::Program(self.workspace.root.clone()),
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
        }
    }

    pub fn display_name(&self) -> String {
        if let Some(pid) = self.attach_pid {
            return format!("pid {pid}");
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
        let file = ws.resolve_file("file", &self.file)?;
        let line = validate::check_line("line", &file, self.line, &self.file)?;
        if let Some(h) = &self.hit_condition {
            let t = h.trim().trim_start_matches([' ', '>', '=', '%']).trim();
            if t.parse::<u64>().is_err() {
                return Err(SessionError::invalid(
                    "hit_count",
                    format!("{h:?} is not a count; use a number such as 3, or >=3 or %3"),
                ));
            }
        }
        Ok(BreakpointSpec {
            file,
            line,
            condition: self.condition.clone().filter(|c| !c.trim().is_empty()),
            hit_condition: self.hit_condition.clone().filter(|c| !c.trim().is_empty()),
            log_message: self.log_message.clone().filter(|c| !c.is_empty()),
        })
    }
}

impl LaunchRequest {
    pub fn validate(
        &self,
        ws: &Workspace,
        request_timeout: Duration,
    ) -> Result<LaunchConfig, SessionError> {
        let program = match (&self.program, &self.module, self.attach) {
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
            (Some(p), None, None) => Some(ws.resolve_program("program", p)?),
            _ => None,
        };
        let language = match (&self.language, &program) {
            (Some(l), _) => l.to_lowercase(),
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
        let adapter =
            adapters::for_language(&language).map_err(|m| SessionError::invalid("language", m))?;
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
        validate::check_args(&self.args)?;
        validate::check_env(&self.env)?;
        let cwd = match &self.cwd {
            Some(c) => ws.resolve_dir("cwd", c)?,
            None => ws.root.clone(),
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
            stop_on_entry: self.stop_on_entry,
            breakpoints,
            exception_filters: self.exception_filters.clone(),
            workspace: ws.clone(),
            request_timeout,
            nodelay: std::env::var_os("PAIRDBG_DEBUGPY_NAGLE").is_none(),
            adapter,
            attach_pid: self.attach,
            origin: super::types::Origin::Agent,
        })
    }
}
