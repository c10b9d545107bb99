//! Java, on a DAP server over JDI that pairdbg carries as source and
//! compiles with the user's JDK (`install`): finding the JDK, spawning the
//! server over stdio, and its launch and attach arguments.

mod install;
mod language;
mod launch;
mod launch_json;
mod pure_calls;

use futures::FutureExt;
use futures::future::BoxFuture;
use tokio::process::Command;

use super::{
    Adapter, AdapterError, ExceptionOptionsQuirk, Found, Language, LaunchSpec, OutputSource,
    Quirks, Spawned, Transport,
};
use crate::dap::process::AdapterProcess;

pub use launch::is_maven_project;

pub struct Java;

static QUIRKS: Quirks = Quirks {
    output: OutputSource::Events,
    // Types are matched by JDI with their subclasses, as Java's catch does.
    exception_options: Some(ExceptionOptionsQuirk {
        category: "Java Exceptions",
        filter_modes: &[("caught", "always"), ("uncaught", "unhandled")],
        exact_types: false,
    }),
    // The JVM starts in its own bootstrap code: a person expects `main`.
    entry_function: Some("main"),
    // The server stops where a condition cannot be evaluated, and says why.
    condition_error_stops: true,
    ..Quirks::DEFAULT
};

impl Adapter for Java {
    fn name(&self) -> &'static str {
        "jdi"
    }

    fn languages(&self) -> &'static [&'static str] {
        &["java"]
    }

    fn is_installed(&self) -> bool {
        install::find_jdk()
            .and_then(|j| install::installed(&j))
            .is_ok()
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &["java"]
    }

    fn launch_json_env(&self, configuration: &serde_json::Value) -> Vec<(String, String)> {
        launch_json::env(configuration)
    }

    fn launch_json_attach(
        &self,
        configuration: &serde_json::Value,
    ) -> Option<Result<(String, u16), String>> {
        Some(launch_json::attach(configuration))
    }

    /// vscode-java's main class runs as a module runs in Python.
    fn launch_json_module_key(&self) -> &'static str {
        "mainClass"
    }

    fn probe(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        async move {
            let jdk = install::find_jdk()?;
            install::installed(&jdk)?;
            Ok(found(&jdk))
        }
        .boxed()
    }

    fn install_command(&self, _spec: &LaunchSpec) -> String {
        install::INSTALL.into()
    }

    fn install(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        async move {
            let jdk = install::find_jdk()?;
            let j = jdk.clone();
            tokio::task::spawn_blocking(move || install::install(&j))
                .await
                .map_err(|e| AdapterError::NotFound(format!("the install stopped: {e}")))??;
            Ok(found(&jdk))
        }
        .boxed()
    }

    fn install_from(
        &self,
        file: &std::path::Path,
    ) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let message = format!(
            "the Java debug server is compiled from pairdbg's own sources by your JDK, not \
             installed from a file such as {}: run {}",
            file.display(),
            install::INSTALL
        );
        Box::pin(async move { Err(AdapterError::Unsupported(message)) })
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let jdk = install::find_jdk()?;
        let dir = install::installed(&jdk)?;
        let start = launch::start_arguments(spec)?;
        let java = jdk.java();
        let mut cmd = Command::new(&java);
        // The server is small and short-lived: no JIT warm-up worth waiting for.
        cmd.args(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp"])
            .arg(&dir)
            .arg(install::MAIN_CLASS)
            .current_dir(&spec.cwd);
        let (process, stdin, stdout) = AdapterProcess::spawn(cmd)
            .map_err(|e| AdapterError::NotFound(format!("cannot start {}: {e}", java.display())))?;
        Ok(Spawned {
            process: Some(process),
            transport: Transport::Stdio {
                reader: Box::pin(stdout),
                writer: Box::pin(stdin),
            },
            // The program's output comes as output events; its input is empty.
            on_terminal: false,
            program_output: None,
            start,
            notes: vec![],
            exit_code_file: None,
        })
    }

    fn default_exception_filters(&self) -> &'static [&'static str] {
        &["uncaught"]
    }

    fn every_exception_filters(&self) -> &'static [&'static str] {
        &["caught", "uncaught"]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    /// From the server's own line, ahead of its `exited` (DapServer.java).
    fn signal_from_output(&self, line: &str) -> Option<i32> {
        super::program_end::signal_line(line)
    }

    fn language(&self) -> &'static dyn Language {
        &language::Java
    }

    /// `breakpoint condition "nosuch > 1" failed: nosuch is not defined here`.
    fn condition_error(&self, output: &str) -> Option<(String, String)> {
        let rest = output.trim().strip_prefix("breakpoint condition ")?;
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<String>();
        let condition = stream.next()?.ok()?;
        let error = rest[stream.byte_offset()..]
            .trim()
            .strip_prefix("failed: ")?;
        Some((condition, error.to_string()))
    }
}

fn found(jdk: &install::Jdk) -> Found {
    Found {
        version: format!("pairdbg's JDI server on Java {}", jdk.version),
        path: jdk.java().display().to_string(),
        warning: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_failed_condition() {
        assert_eq!(
            Java.condition_error(
                "breakpoint condition \"a == \\\"x\\\"\" failed: a is not defined here\n"
            ),
            Some(("a == \"x\"".into(), "a is not defined here".into()))
        );
        assert_eq!(Java.condition_error("hello\n"), None);
    }
}
