//! A build step that runs before every launch and restart: a shell command
//! (`--build`, `debug_launch {build}`), a launch.json `preLaunchTask`, or
//! CodeLLDB's `cargo` form, checked once at the edge.

use std::path::PathBuf;
use std::time::Duration;

use super::error::SessionError;
use super::validate::{self, Workspace};

/// The longest build command accepted, in characters.
pub const MAX_BUILD_CHARS: usize = 4096;
/// The most commands one build may run (a task and what it depends on).
pub const MAX_BUILD_COMMANDS: usize = 32;
/// How long a build may take when the caller set no deadline.
pub const DEFAULT_BUILD_TIMEOUT: Duration = Duration::from_secs(600);

/// A build as a controller asks for it.
#[derive(Debug, Clone, Default)]
pub struct BuildRequest {
    /// Run in order; the first that fails ends the build.
    pub commands: Vec<BuildCommandRequest>,
    /// The program is the executable cargo's JSON messages name.
    pub cargo: bool,
    pub timeout: Option<Duration>,
    /// The launch field a bad command is named by.
    pub field: String,
}

#[derive(Debug, Clone, Default)]
pub struct BuildCommandRequest {
    /// What the progress line calls it.
    pub label: String,
    pub program: String,
    pub args: Vec<String>,
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    /// A cargo command whose executable is the program: which one.
    pub cargo: Option<CargoPick>,
}

/// Which of cargo's executables is the program (CodeLLDB's `cargo.filter`):
/// with neither given, the only one built.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CargoPick {
    /// The target's name.
    pub name: Option<String>,
    /// One of the target's kinds: `bin`, `example`, `test`, `bench`.
    pub kind: Option<String>,
}

impl BuildCommandRequest {
    /// `command` run by the shell, as a person types it.
    pub fn shell(command: &str) -> Self {
        BuildCommandRequest {
            label: command.to_string(),
            program: "sh".into(),
            args: vec!["-c".into(), command.to_string()],
            ..Default::default()
        }
    }
}

/// A build, checked.
#[derive(Debug, Clone)]
pub struct BuildStep {
    pub commands: Vec<BuildCommand>,
    pub timeout: Duration,
}

#[derive(Debug, Clone)]
pub struct BuildCommand {
    pub label: String,
    pub program: String,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    pub env: Vec<(String, String)>,
    pub cargo: Option<CargoPick>,
}

impl BuildRequest {
    /// A shell command given as `field`.
    pub fn shell(field: &str, command: &str) -> Self {
        BuildRequest {
            commands: vec![BuildCommandRequest::shell(command)],
            field: field.to_string(),
            ..Default::default()
        }
    }

    pub fn validate(
        &self,
        ws: &Workspace,
        cwd: &std::path::Path,
    ) -> Result<BuildStep, SessionError> {
        let field = self.field.as_str();
        if self.commands.is_empty() {
            return Err(SessionError::invalid(field, "the build runs no command"));
        }
        if self.commands.len() > MAX_BUILD_COMMANDS {
            return Err(SessionError::invalid(
                field,
                format!(
                    "{} commands; the limit is {MAX_BUILD_COMMANDS}",
                    self.commands.len()
                ),
            ));
        }
        let mut commands = vec![];
        for c in &self.commands {
            // A shell command is one argument; each part has the limit.
            let chars = std::iter::once(&c.program)
                .chain(&c.args)
                .map(|a| a.chars().count())
                .max()
                .unwrap_or(0);
            if chars > MAX_BUILD_CHARS {
                return Err(SessionError::invalid(
                    field,
                    format!("the command is {chars} characters; the limit is {MAX_BUILD_CHARS}"),
                ));
            }
            if c.program.trim().is_empty() || c.args.last().is_some_and(|a| a.trim().is_empty()) {
                return Err(SessionError::invalid(field, "the command is empty"));
            }
            validate::check_args(&c.args)?;
            validate::check_env(&c.env)?;
            let dir = match &c.cwd {
                Some(d) => ws.resolve_dir(&format!("{field}.cwd"), d)?,
                None => cwd.to_path_buf(),
            };
            commands.push(BuildCommand {
                label: c.label.clone(),
                program: c.program.clone(),
                args: c.args.clone(),
                cwd: dir,
                env: c.env.clone(),
                cargo: c.cargo.clone(),
            });
        }
        Ok(BuildStep {
            commands,
            timeout: self.timeout.unwrap_or(DEFAULT_BUILD_TIMEOUT),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_or_empty_command_is_refused_by_its_field() {
        let d = tempfile::tempdir().unwrap();
        let ws = Workspace::new(d.path(), false);
        let long = "x".repeat(MAX_BUILD_CHARS + 1);
        let e = BuildRequest::shell("build", &long)
            .validate(&ws, &ws.root)
            .unwrap_err()
            .to_string();
        assert!(e.contains("build") && e.contains("4096"), "{e}");
        let e = BuildRequest::shell("build", "  ")
            .validate(&ws, &ws.root)
            .unwrap_err()
            .to_string();
        assert!(e.contains("build") && e.contains("empty"), "{e}");
        let ok = BuildRequest::shell("build", "make").validate(&ws, &ws.root);
        assert_eq!(ok.unwrap().commands[0].cwd, ws.root);
    }
}
