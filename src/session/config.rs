//! What a launch needs, validated once at the edge.

use std::path::PathBuf;
use std::time::Duration;

use super::error::SessionError;
use super::validate::{self, Workspace};

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
    /// The TCP_NODELAY workaround for debugpy; off only to measure it.
    pub nodelay: bool,
    /// Whose are the launch's breakpoints.
    pub origin: super::types::Origin,
}

impl LaunchConfig {
    pub fn display_name(&self) -> String {
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
        let language = match (&self.language, &self.program) {
            (Some(l), _) => l.to_lowercase(),
            (None, Some(p)) if p.ends_with(".py") => "python".into(),
            (None, None) if self.module.is_some() => "python".into(),
            (None, Some(p)) => {
                return Err(SessionError::invalid(
                    "language",
                    format!("cannot infer the language of {p}; pass language (supported: python)"),
                ));
            }
            (None, None) => "python".into(),
        };
        if language != "python" {
            return Err(SessionError::invalid(
                "language",
                format!("{language} is not supported yet; supported: python"),
            ));
        }
        let (program, module) = match (&self.program, &self.module) {
            (Some(_), Some(_)) => {
                return Err(SessionError::invalid(
                    "program",
                    "give program or module, not both",
                ));
            }
            (None, None) => return Err(SessionError::invalid("program", "give program or module")),
            (Some(p), None) => (Some(ws.resolve_file("program", p)?), None),
            (None, Some(m)) => {
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
                (None, Some(m.clone()))
            }
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
            origin: super::types::Origin::Agent,
        })
    }
}
