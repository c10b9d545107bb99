//! coredumpy, for Python programs that crashed: it saves a crashed
//! program's frames and values to a dump file, and this adapter opens one
//! as a stop that runs nothing. The DAP server is ours
//! (boot/dump_server.py, run on the user's Python with coredumpy
//! installed): it reads the dump through coredumpy's own loader and sends
//! values as debugpy does, so Python's value rules apply unchanged.

mod dump;

use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::json;

use super::post_mortem_server::PostMortemServer;
use super::{
    Adapter, AdapterError, Found, Language, LaunchSpec, OutputSource, Quirks, Spawned, Target,
};

pub use dump::is_python_dump;

static SERVER: PostMortemServer = PostMortemServer {
    package: "coredumpy",
    file: "dump_server.py",
    text: include_str!("boot/dump_server.py"),
    written: &WRITTEN,
};
static WRITTEN: OnceLock<Result<std::path::PathBuf, String>> = OnceLock::new();

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
        SERVER.probe(spec)
    }

    fn install_command(&self, spec: &LaunchSpec) -> String {
        SERVER.install_command(spec)
    }

    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        SERVER.install(spec)
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        let Target::Core { core, .. } = &spec.target else {
            return Err(AdapterError::Unsupported(
                "coredumpy opens dumps of crashed Python programs, it runs none: use debugpy"
                    .into(),
            ));
        };
        SERVER.spawn(spec, json!({ "dump": core }))
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
