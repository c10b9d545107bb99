//! pystack, for a CPython interpreter that crashed (a segfault in an
//! extension, an abort): it reads each thread's Python stack and locals
//! from the interpreter's core file. The DAP server is ours
//! (boot/core_server.py, on the user's Python with pystack installed); its
//! values are pystack's text of the objects in the core, read by Python's
//! value rules.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::json;

use super::post_mortem_server::PostMortemServer;
use super::{
    Adapter, AdapterError, Found, Language, LaunchSpec, OutputSource, Quirks, Spawned, Target,
};

static SERVER: PostMortemServer = PostMortemServer {
    package: "pystack",
    file: "core_server.py",
    text: include_str!("boot/core_server.py"),
    written: &WRITTEN,
};
static WRITTEN: OnceLock<Result<std::path::PathBuf, String>> = OnceLock::new();

pub struct Pystack;

static QUIRKS: Quirks = Quirks {
    stable_frame_references: true,
    output: OutputSource::Events,
    ..Quirks::DEFAULT
};

impl Adapter for Pystack {
    fn name(&self) -> &'static str {
        "pystack"
    }

    fn languages(&self) -> &'static [&'static str] {
        &["python"]
    }

    /// Never the choice for a program that runs: only for a core.
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
        SERVER.probe(spec)
    }

    fn install_command(&self, spec: &LaunchSpec) -> String {
        SERVER.install_command(spec)
    }

    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        SERVER.install(spec)
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let Target::Core { core, program } = &spec.target else {
            return Err(AdapterError::Unsupported(
                "pystack reads cores of crashed Python interpreters, it runs nothing: use debugpy"
                    .into(),
            ));
        };
        // The core names its interpreter; a program given says where it is now.
        let program = (!program.as_os_str().is_empty()).then_some(program);
        SERVER.spawn(spec, json!({ "core": core, "program": program }))
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
