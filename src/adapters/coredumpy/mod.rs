//! coredumpy, for Python programs that crashed: it saves a crashed
//! program's frames and values to a dump file, and this adapter opens one
//! as a stop that runs nothing. The DAP server is ours
//! (boot/dump_server.py, run on the user's Python with coredumpy
//! installed): it reads the dump through coredumpy's own loader and sends
//! values as debugpy does, so Python's value rules apply unchanged.

mod dump;

use std::path::PathBuf;
use std::sync::OnceLock;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::json;
use tokio::process::Command;

use super::{
    Adapter, AdapterError, Found, Language, LaunchSpec, OutputSource, Quirks, Spawned, Target,
    Transport,
};
use crate::dap::process::AdapterProcess;

pub use dump::is_python_dump;

const SERVER: &str = include_str!("boot/dump_server.py");
const PACKAGE: &str = "coredumpy";

pub struct Coredumpy;

static QUIRKS: Quirks = Quirks {
    // Frames and values are numbered once for the whole dump.
    stable_frame_references: true,
    output: OutputSource::Events,
    ..Quirks::DEFAULT
};

impl Adapter for Coredumpy {
    fn name(&self) -> &'static str {
        "coredumpy"
    }

    fn languages(&self) -> &'static [&'static str] {
        &["python"]
    }

    /// Never the choice for a program that runs: only for a dump.
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
        let python = super::debugpy::find_python(spec.interpreter.as_deref(), &spec.workspace);
        async move {
            let python = python?;
            let v = super::pip::version(&python, PACKAGE, PACKAGE).await?;
            Ok(found(&python, &v))
        }
        .boxed()
    }

    fn install_command(&self, spec: &LaunchSpec) -> String {
        match super::debugpy::find_python(spec.interpreter.as_deref(), &spec.workspace) {
            Ok(p) => super::pip::install_command(&p, PACKAGE),
            Err(_) => format!("python3 -m pip install {PACKAGE}"),
        }
    }

    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let python = super::debugpy::find_python(spec.interpreter.as_deref(), &spec.workspace);
        async move {
            let python = python?;
            let v = super::pip::install(&python, PACKAGE, PACKAGE).await?;
            Ok(found(&python, &v))
        }
        .boxed()
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let Target::Core { core, .. } = &spec.target else {
            return Err(AdapterError::Unsupported(
                "coredumpy opens dumps of crashed Python programs, it runs none: use debugpy"
                    .into(),
            ));
        };
        let python = super::debugpy::find_python(spec.interpreter.as_deref(), &spec.workspace)?;
        let mut cmd = Command::new(&python);
        cmd.arg(server()?).current_dir(&spec.cwd);
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
            start: ("launch", json!({ "dump": core })),
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

fn found(python: &std::path::Path, version: &str) -> Found {
    Found {
        version: format!("coredumpy {version}"),
        path: python.display().to_string(),
        warning: None,
    }
}

/// The server's file, written once under the owner-only runtime directory
/// in a folder named by its contents.
fn server() -> Result<&'static PathBuf, AdapterError> {
    static FILE: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FILE.get_or_init(|| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        SERVER.hash(&mut h);
        crate::paths::install_file(
            &format!("coredumpy-{:016x}", h.finish()),
            "dump_server.py",
            SERVER,
        )
        .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| AdapterError::NotFound(format!("cannot write the dump server: {e}")))
}
