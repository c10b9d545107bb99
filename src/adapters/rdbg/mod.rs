//! rdbg, for Ruby: the `debug` gem's debugger, which runs the program in
//! its own process and serves DAP on a loopback port it picks and
//! announces. Finding and installing it, its launch, and what it does that
//! the protocol does not promise.

mod conditions;
mod install;
mod launch;
mod pure_calls;
mod ruby;

use futures::FutureExt;
use futures::future::BoxFuture;

use super::{Adapter, AdapterError, Found, Language, LaunchSpec, OutputSource, Quirks, Spawned};

pub struct Rdbg;

static QUIRKS: Quirks = Quirks {
    // The program runs inside rdbg: its output is rdbg's own stdout and stderr.
    output: OutputSource::Process,
    // `%self`, `%return`, `%raised` and a value's `#class` are rdbg's
    // listings, not the program's variables.
    hidden_variable_prefixes: &["%", "#"],
    // rdbg has no `exceptionInfo` (asking stops its DAP server): the
    // `stopped` event's description says the exception.
    exception_in_stopped_event: true,
    ends_by_closing: true,
    step_back_unanswered: true,
    // A step out ends at the method's return, with the value it returns.
    return_value_name: Some("_return"),
    ..Quirks::DEFAULT
};

/// rdbg records each line the program's thread runs, with its frames and
/// locals, once told `record on`; its DAP `stepBack` then moves back a
/// line. Its console commands are not reachable over DAP (`evaluate` runs
/// Ruby), so recording starts and ends through the debug gem's own
/// objects, in the stopped thread.
static RECORDER: super::recording::Recorder = super::recording::Recorder {
    method: "rdbg record",
    start: "DEBUGGER__::ThreadClient.current.instance_eval { \
            (@recorder ||= DEBUGGER__::ThreadClient::Recorder.new).enable; nil }",
    stop: "DEBUGGER__::ThreadClient.current.instance_eval { @recorder&.disable; nil }",
    // It keeps every line: no limit to set.
    limit: "",
    // It counts lines, not instructions: left unread rather than misnamed.
    info: "",
    // Unused: rdbg claims `supportsStepBack`, so back over is its `stepBack`
    // and a continue back its `reverseContinue` (which it refuses).
    back_over: "",
    back_into: "",
    back_out: "",
    back_continue: "",
    failure_lines: &[],
    history_start: "",
    history_end: "",
    halt_request: None,
};

impl Adapter for Rdbg {
    fn name(&self) -> &'static str {
        "rdbg"
    }

    fn languages(&self) -> &'static [&'static str] {
        &["ruby"]
    }

    fn recorder(&self) -> Option<&'static super::recording::Recorder> {
        Some(&RECORDER)
    }

    fn is_installed(&self) -> bool {
        install::find_rdbg().is_ok()
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &["rdbg", "ruby"]
    }

    fn probe(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        install::probe().boxed()
    }

    fn install_command(&self, _spec: &LaunchSpec) -> String {
        install::APT_INSTALL.into()
    }

    fn install(&self, _spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        async move {
            // Already here: apt has nothing to do.
            if let Ok(found) = install::probe().await {
                return Ok(found);
            }
            super::apt::install("ruby", install::APT_INSTALL).await?;
            install::probe().await
        }
        .boxed()
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        launch::spawn(spec)
    }

    /// rdbg's own default: a `RuntimeError` (what a bare `raise "..."`
    /// raises) stops the program.
    fn default_exception_filters(&self) -> &'static [&'static str] {
        &["RuntimeError"]
    }

    fn every_exception_filters(&self) -> &'static [&'static str] {
        &["any"]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    fn language(&self) -> &'static dyn Language {
        &ruby::Ruby
    }

    /// Ruby's own parser checks it: rdbg would take a condition that does
    /// not parse and never stop there.
    fn check_condition(
        &self,
        _spec: &LaunchSpec,
        condition: &str,
    ) -> Option<BoxFuture<'static, Result<(), String>>> {
        let ruby = install::find_rdbg()
            .and_then(|r| install::find_ruby(&r))
            .ok()?;
        Some(conditions::check(ruby, condition.to_string()).boxed())
    }

    fn is_own_output(&self, line: &str) -> bool {
        line.starts_with("DEBUGGER:")
    }
}
