//! A DAP server of ours, written in Python, that reads what a crashed
//! Python program left (coredumpy's dump, a CPython core through pystack)
//! with a package installed by pip for the workspace's interpreter: finding
//! it, installing it, and starting the server over stdio.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::Value;
use tokio::process::Command;

use super::{AdapterError, Found, LaunchSpec, Spawned, Transport};
use crate::dap::process::AdapterProcess;

pub struct PostMortemServer {
    /// The pip package, imported under the same name.
    pub package: &'static str,
    /// The server's file name and text.
    pub file: &'static str,
    pub text: &'static str,
    /// Where its text is written once, by pairdbg's version of it.
    pub written: &'static OnceLock<Result<PathBuf, String>>,
}

impl PostMortemServer {
    fn python(&self, spec: &LaunchSpec) -> Result<PathBuf, AdapterError> {
        super::debugpy::find_python(spec.interpreter.as_deref(), &spec.workspace)
    }

    pub fn probe(
        &'static self,
        spec: &LaunchSpec,
    ) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let python = self.python(spec);
        async move {
            let python = python?;
            let v = super::pip::version(&python, self.package, self.package).await?;
            Ok(self.found(&python, &v))
        }
        .boxed()
    }

    pub fn install_command(&self, spec: &LaunchSpec) -> String {
        match self.python(spec) {
            Ok(p) => super::pip::install_command(&p, self.package),
            Err(_) => format!("python3 -m pip install {}", self.package),
        }
    }

    pub fn install(
        &'static self,
        spec: &LaunchSpec,
    ) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let python = self.python(spec);
        async move {
            let python = python?;
            let v = super::pip::install(&python, self.package, self.package).await?;
            Ok(self.found(&python, &v))
        }
        .boxed()
    }

    fn found(&self, python: &Path, version: &str) -> Found {
        Found {
            version: format!("{} {version}", self.package),
            path: python.display().to_string(),
            warning: None,
        }
    }

    /// The server started on the workspace's Python, to be sent `launch`
    /// with `arguments`.
    pub fn spawn(&self, spec: &LaunchSpec, arguments: Value) -> Result<Spawned, AdapterError> {
        let python = self.python(spec)?;
        let mut cmd = Command::new(&python);
        cmd.arg(self.server()?).current_dir(&spec.cwd);
        let (process, stdin, stdout) = AdapterProcess::spawn(cmd).map_err(|e| {
            AdapterError::NotFound(format!("cannot start {}: {e}", python.display()))
        })?;
        Ok(Spawned {
            process: Some(process),
            transport: Transport::Stdio {
                reader: Box::pin(stdout),
                writer: Box::pin(stdin),
            },
            program_output: None,
            on_terminal: false,
            start: ("launch", arguments),
            notes: vec![],
            exit_code_file: None,
        })
    }

    /// The server's file, written once under the owner-only runtime
    /// directory in a folder named by its contents.
    fn server(&self) -> Result<&'static PathBuf, AdapterError> {
        self.written
            .get_or_init(|| {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                self.text.hash(&mut h);
                crate::paths::install_file(
                    &format!("{}-{:016x}", self.package, h.finish()),
                    self.file,
                    self.text,
                )
                .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| {
                AdapterError::NotFound(format!("cannot write the {} server: {e}", self.package))
            })
    }
}
