//! An adapter that reads what a crashed Python program left (coredumpy's
//! dump, a CPython core through pystack) with a DAP server of ours, written
//! in Python over a package pip installs for the workspace's interpreter.
//! Each reader is a `PostMortemServer` value; they differ in their package,
//! their server and its launch arguments only.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::Value;
use tokio::process::Command;

use super::{
    Adapter, AdapterError, Found, Language, LaunchSpec, OutputSource, Quirks, Spawned, Target,
    Transport,
};
use crate::dap::process::AdapterProcess;

/// The DAP framing and request loop both servers import.
const DAP_STDIO: &str = include_str!("post_mortem_dap_stdio.py");

pub struct PostMortemServer {
    /// The pip package, imported under the same name; also the adapter's name.
    pub package: &'static str,
    /// The server's file name and text.
    pub file: &'static str,
    pub text: &'static str,
    /// The `launch` arguments for a core file and the program given with it
    /// (empty where none was).
    pub launch: fn(&Path, &Path) -> Value,
    /// Where its files are written once, by pairdbg's version of them.
    pub written: &'static OnceLock<Result<PathBuf, String>>,
}

static QUIRKS: Quirks = Quirks {
    // Frames and values are numbered once for the whole file.
    stable_frame_references: true,
    output: OutputSource::Events,
    ..Quirks::DEFAULT
};

impl PostMortemServer {
    fn python(&self, spec: &LaunchSpec) -> Result<PathBuf, AdapterError> {
        super::debugpy::find_python(spec.interpreter.as_deref(), &spec.workspace)
    }

    /// The server's files, written once under the owner-only runtime
    /// directory in a folder named by their contents.
    fn server(&self) -> Result<&'static PathBuf, AdapterError> {
        self.written
            .get_or_init(|| {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                (self.text, DAP_STDIO).hash(&mut h);
                let dir = format!("{}-{:016x}", self.package, h.finish());
                crate::paths::install_file(&dir, "dap_stdio.py", DAP_STDIO)
                    .and_then(|_| crate::paths::install_file(&dir, self.file, self.text))
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map_err(|e| {
                AdapterError::NotFound(format!("cannot write the {} server: {e}", self.package))
            })
    }
}

impl Adapter for PostMortemServer {
    fn name(&self) -> &'static str {
        self.package
    }

    fn languages(&self) -> &'static [&'static str] {
        &["python"]
    }

    /// Never the choice for a program that runs: only for what one left.
    fn preferred_languages(&self) -> &'static [&'static str] {
        &[]
    }

    fn only_core_files(&self) -> bool {
        true
    }

    fn opens_core_files(&self) -> bool {
        true
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &[]
    }

    fn probe(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let (python, package) = (self.python(spec), self.package);
        async move {
            let python = python?;
            let v = super::pip::version(&python, package, package).await;
            Ok(found(package, &python, v?))
        }
        .boxed()
    }

    fn install_command(&self, spec: &LaunchSpec) -> String {
        match self.python(spec) {
            Ok(p) => super::pip::install_command(&p, self.package),
            Err(_) => format!("python3 -m pip install {}", self.package),
        }
    }

    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let (python, package) = (self.python(spec), self.package);
        async move {
            let python = python?;
            let v = super::pip::install(&python, package, package).await;
            Ok(found(package, &python, v?))
        }
        .boxed()
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let Target::Core { core, program } = &spec.target else {
            return Err(AdapterError::Unsupported(format!(
                "{} reads what a crashed Python program left; it runs nothing: use debugpy",
                self.package
            )));
        };
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
            start: ("launch", (self.launch)(core, program)),
            notes: vec![],
            exit_code_file: None,
        })
    }

    fn default_exception_filters(&self) -> &'static [&'static str] {
        &[]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    fn language(&self) -> &'static dyn Language {
        super::debugpy::python_language()
    }
}

fn found(package: &str, python: &Path, version: String) -> Found {
    Found {
        version: format!("{package} {version}"),
        path: python.display().to_string(),
        warning: None,
    }
}
