//! delve, for Go: finding and installing `dlv`, spawning `dlv dap` on a
//! loopback port it picks and announces, its launch and attach arguments,
//! and reading what it prints (the program's output, its own chatter, the
//! exit status).

pub(crate) mod build_error;
mod conditions;
mod generics;
mod go;
mod listen;
mod pure_calls;
mod remote;
mod typed;
pub mod versions;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::process::Command;

use super::{
    Adapter, AdapterError, Found, Language, LaunchSpec, OutputSource, ProgramOutput, Quirks,
    Spawned, Target, which,
};
use crate::dap::process::AdapterProcess;

pub struct Delve;

/// Built by the machine's own Go, so delve reads what that Go compiles
/// (a packaged delve lags the Go releases it can read), as VS Code's Go
/// extension installs it.
const DELVE_MODULE: &str = "github.com/go-delve/delve/cmd/dlv@latest";
const INSTALL: &str = "go install github.com/go-delve/delve/cmd/dlv@latest";
/// Without Go there is nothing to build with: Debian's delve.
const APT_INSTALL: &str = "apt-get install -y delve";

static QUIRKS: Quirks = Quirks {
    // Program output reaches us through dlv's own stdout and stderr.
    output: OutputSource::Process,
    // `~r0` and the like are return slots the compiler made, not the user's.
    hidden_variable_prefixes: &["~"],
    same_line_steps: false,
    pause_may_not_halt: true,
    exit_code_after_disconnect: true,
    start_error_in_output: true,
    // delve's own entry stop is before the runtime has a goroutine, where
    // no stack can be read; the program's `main` is where a person expects
    // it to begin.
    entry_function: Some("main.main"),
    ..Quirks::DEFAULT
};

impl Adapter for Delve {
    fn name(&self) -> &'static str {
        "delve"
    }

    fn languages(&self) -> &'static [&'static str] {
        &["go"]
    }

    fn launch_json_types(&self) -> &'static [&'static str] {
        &["go"]
    }

    fn opens_core_files(&self) -> bool {
        true
    }

    fn probe(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        // The server speaks DAP itself: nothing of ours runs.
        if let Target::Remote(r) = &spec.target {
            return futures::future::ready(Ok(r.found("dlv"))).boxed();
        }
        async move {
            let dlv = find_dlv()?;
            let v = version(&dlv).await?;
            let go = versions::go_version().await;
            Ok(Found {
                version: match &go {
                    Some(go) => format!("delve {v}, {go}"),
                    None => format!("delve {v}, no go on PATH"),
                },
                path: dlv.display().to_string(),
                warning: go.and_then(|go| versions::too_old(&v, &go)),
            })
        }
        .boxed()
    }

    fn install_command(&self, _spec: &LaunchSpec) -> String {
        match which("go") {
            Some(_) => INSTALL.into(),
            None => APT_INSTALL.into(),
        }
    }

    fn install(&self, spec: &LaunchSpec) -> BoxFuture<'static, Result<Found, AdapterError>> {
        let probe = self.probe(spec);
        async move {
            match which("go") {
                Some(go) => go_install_delve(go).await?,
                None => super::apt::install("delve", APT_INSTALL).await?,
            }
            probe.await
        }
        .boxed()
    }

    fn spawn(&self, spec: &LaunchSpec) -> Result<Spawned, AdapterError> {
        if let Target::Remote(r) = &spec.target {
            return remote::spawn(spec, r);
        }
        let dlv = find_dlv()?;
        let (start, build_dir) = start_arguments(spec)?;
        let cannot = |e: std::io::Error| {
            AdapterError::NotFound(format!("cannot start {}: {e}", dlv.display()))
        };
        let log = listen::LogPipe::new().map_err(cannot)?;
        let mut cmd = Command::new(&dlv);
        cmd.args(["dap", "--listen", listen::ANY_LOOPBACK_PORT])
            .args(log.arguments())
            // delve builds in its own working directory: go.mod is found from there.
            .current_dir(&build_dir);
        // The program inherits delve's stdio: on the session's terminal, it
        // can read its input there.
        let terminal = match (&spec.stdio, &spec.target) {
            (Some(t), Target::Program(_)) => Some(t.open().map_err(cannot)?),
            _ => None,
        };
        let on_terminal = terminal.is_some();
        let (process, program_output) = match terminal {
            Some(files) => (
                AdapterProcess::spawn_with_stdio(cmd, files, Some(log.fd())).map_err(cannot)?,
                None,
            ),
            None => {
                let (process, stdout, stderr) =
                    AdapterProcess::spawn_with_output(cmd, Some(log.fd())).map_err(cannot)?;
                let out = ProgramOutput {
                    stdout: Box::pin(stdout),
                    stderr: Box::pin(stderr),
                };
                (process, Some(out))
            }
        };
        let mut notes = vec![];
        if matches!(spec.target, Target::Program(_)) && start.1["mode"] == "debug" {
            notes.push("delve builds the program with optimisations off.".into());
        }
        if let Target::Program(p) = &spec.target
            && start.1["mode"] == "exec"
            && let Some(note) = built_by_newer_go(&dlv, p)
        {
            notes.push(note);
        }
        Ok(Spawned {
            process: Some(process),
            transport: log.announced().map_err(cannot)?,
            on_terminal,
            program_output,
            start,
            exit_code_file: None,
            notes,
        })
    }

    /// delve before 1.22 stopped on an unrecovered panic whatever the
    /// filters said; later ones stop only where these filters are on.
    fn default_exception_filters(&self) -> &'static [&'static str] {
        &["unrecovered-panic", "runtime-fatal-throw"]
    }

    fn quirks(&self) -> &'static Quirks {
        &QUIRKS
    }

    fn language(&self) -> &'static dyn Language {
        &go::Go
    }

    /// gofmt comes with the Go toolchain that delve builds with.
    fn check_condition(
        &self,
        _spec: &LaunchSpec,
        condition: &str,
    ) -> Option<BoxFuture<'static, Result<(), String>>> {
        let gofmt = which("gofmt").or_else(|| {
            let go = std::fs::canonicalize(which("go")?).ok()?;
            Some(go.with_file_name("gofmt")).filter(|p| p.is_file())
        })?;
        Some(conditions::check(gofmt, condition.to_string()).boxed())
    }

    fn condition_error_stop(
        &self,
        description: Option<&str>,
        text: Option<&str>,
    ) -> Option<String> {
        conditions::runtime_error(description?, text?)
    }

    /// delve gives a signal's death as the negated signal (-9), which no
    /// exit code can be; but -1 is also what it gives for a status it did
    /// not get.
    fn program_end(&self, code: i64) -> super::ProgramEnd {
        match super::program_end::is_signal(-code) {
            _ if code == -1 => super::ProgramEnd::CodeOrSignal(code),
            Some(s) if code < 0 => super::ProgramEnd::Signal(s),
            _ => super::ProgramEnd::Code(code),
        }
    }

    /// `Process 4242 has exited with status 3`, sent when we disconnect.
    fn exit_code_from_output(&self, line: &str) -> Option<i64> {
        let rest = line.trim().strip_prefix("Process ")?;
        let (_, status) = rest.split_once(" has exited with status ")?;
        status.trim().parse().ok()
    }

    fn build_error(&self, output_tail: &str) -> Option<(String, u64, String)> {
        build_error::build_error(output_tail)
    }

    fn start_error_summary(&self, output_tail: &str) -> Option<String> {
        build_error::toolchain_error(output_tail)
    }

    fn build_dir(&self, spec: &LaunchSpec) -> Option<PathBuf> {
        match &spec.target {
            Target::Program(p) if is_source(p) => Some(program_build_dir(p, &spec.cwd)),
            _ => None,
        }
    }

    /// It tells of the build it runs as if the program wrote it.
    fn is_start_output(&self, output: &str) -> bool {
        output.starts_with("Building ") || output.starts_with("Build Error: ")
    }

    fn is_own_output(&self, line: &str) -> bool {
        let l = line.trim_end();
        l.starts_with("DAP server listening at:")
            || l.starts_with("Type 'dlv help'")
            || l.starts_with("Detaching")
            // Its log lines: `2026-11-22T15:05:41Z error layer=dap ...`.
            || (l.len() > 20 && l.as_bytes()[4] == b'-' && l.contains(" layer="))
    }
}

/// delve's own warning, said before it: a prebuilt program's Go is newer
/// than the delve that reads it.
fn built_by_newer_go(dlv: &Path, program: &Path) -> Option<String> {
    let go = versions::built_by(program)?;
    let delve = versions::delve_version_now(dlv)?;
    versions::older(&delve, &go)?.then(|| {
        format!(
            "delve {delve} is older than {go}, which built {}: it may not read it; \
             update it with: pairdbg adapters install go",
            program.display()
        )
    })
}

/// Runs `go install` for delve with the user's `go`, into `GOBIN` where it
/// is set, else pairdbg's data directory (found again by `find_dlv`).
async fn go_install_delve(go: PathBuf) -> Result<(), AdapterError> {
    let mut cmd = Command::new(go);
    cmd.args(["install", DELVE_MODULE]);
    if std::env::var_os("GOBIN").is_none()
        && let Some(dir) = own_bin_dir()
    {
        cmd.env("GOBIN", dir);
    }
    let out = cmd
        .output()
        .await
        .map_err(|e| AdapterError::NotFound(format!("cannot run go install: {e}")))?;
    if out.status.success() {
        return Ok(());
    }
    Err(super::apt::failed(
        "go install could not build delve",
        &out,
        INSTALL,
    ))
}

/// The dlv `pairdbg adapters install go` built (it replaces an older one
/// on PATH), else `dlv` on PATH, else where `go install` puts it (`$GOBIN`,
/// `$GOPATH/bin`, `~/go/bin`).
pub fn find_dlv() -> Result<PathBuf, AdapterError> {
    if let Some(p) = own_bin_dir().map(|d| d.join("dlv")).filter(|p| p.is_file()) {
        return Ok(p);
    }
    if let Some(p) = which("dlv") {
        return Ok(p);
    }
    let mut dirs: Vec<PathBuf> = vec![];
    if let Some(bin) = std::env::var_os("GOBIN") {
        dirs.push(bin.into());
    }
    if let Some(paths) = std::env::var_os("GOPATH") {
        dirs.extend(std::env::split_paths(&paths).map(|p| p.join("bin")));
    }
    if let Some(home) = std::env::var_os("HOME") {
        dirs.push(Path::new(&home).join("go/bin"));
    }
    if let Some(p) = dirs.iter().map(|d| d.join("dlv")).find(|p| p.is_file()) {
        return Ok(p);
    }
    Err(AdapterError::Missing {
        what: "delve (dlv) is not on PATH nor where go install puts it".into(),
        fix: INSTALL.into(),
    })
}

/// Where `pairdbg adapters install go` puts the dlv it builds.
fn own_bin_dir() -> Option<PathBuf> {
    crate::paths::data_dir().map(|d| d.join("adapters").join("delve"))
}

/// `1.20.2` from `dlv version`'s `Version: 1.20.2` line.
pub async fn version(dlv: &Path) -> Result<String, AdapterError> {
    let out = Command::new(dlv)
        .arg("version")
        .output()
        .await
        .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", dlv.display())))?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.trim().strip_prefix("Version:"))
        .map(|v| v.trim().to_string())
        .ok_or_else(|| AdapterError::NotFound(format!("{} version said: {text}", dlv.display())))
}

/// The `launch` or `attach` request, and the directory dlv runs in (where
/// a build finds its module).
fn start_arguments(spec: &LaunchSpec) -> Result<((&'static str, Value), PathBuf), AdapterError> {
    let mut env: serde_json::Map<String, Value> = spec
        .env
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    if spec.keep_core && !env.contains_key("GOTRACEBACK") {
        // Go's runtime exits with code 2 on a crash; `crash` aborts instead,
        // which writes the core.
        env.insert("GOTRACEBACK".into(), json!("crash"));
    }
    match &spec.target {
        Target::Attach(pid) => Ok((
            (
                "attach",
                json!({"request": "attach", "mode": "local", "processId": pid,
                       "stopOnEntry": spec.stop_on_entry}),
            ),
            spec.cwd.clone(),
        )),
        Target::Remote(_) => Err(AdapterError::Unsupported(
            "a remote attach has no dlv of ours to start".into(),
        )),
        Target::Core { core, program } => Ok((
            (
                "launch",
                json!({"request": "launch", "mode": "core", "program": program,
                       "coreFilePath": core, "cwd": spec.cwd}),
            ),
            spec.cwd.clone(),
        )),
        Target::Module(m) => Err(AdapterError::Unsupported(format!(
            "delve runs Go packages, files or binaries, not modules such as {m}"
        ))),
        Target::Program(p) => {
            let is_source = is_source(p);
            let build_dir = program_build_dir(p, &spec.cwd);
            let mut args = json!({
                "request": "launch",
                "mode": if is_source { "debug" } else { "exec" },
                "program": p,
                "cwd": spec.cwd,
                "args": spec.args,
                "env": env,
                // The engine stops at `main.main` instead (`entry_function`).
                "stopOnEntry": false,
            });
            if let Some(flags) = spec.build_flags.as_deref().filter(|_| is_source) {
                args["buildFlags"] = json!(flags);
            }
            if is_source {
                // Not `__debug_bin` in the user's package: the build is ours.
                let dir = crate::paths::runtime_dir()
                    .map_err(|e| AdapterError::NotFound(format!("no runtime directory: {e}")))?;
                args["output"] = json!(dir.join(debug_binary_name()));
            }
            Ok((("launch", args), build_dir))
        }
    }
}

/// A name no other session of this or another pairdbg builds to at the
/// same time.
fn debug_binary_name() -> String {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    format!("go-debug-bin-{}-{n}", std::process::id())
}

fn is_source(program: &Path) -> bool {
    program.is_dir() || program.extension().is_some_and(|e| e == "go")
}

/// A package builds in its own directory, a file in the one it is in; a
/// binary runs from the working directory.
fn program_build_dir(program: &Path, cwd: &Path) -> PathBuf {
    if program.is_dir() {
        program.to_path_buf()
    } else if is_source(program) {
        program.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        cwd.to_path_buf()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_exit_status_and_its_own_lines() {
        let d = Delve;
        assert_eq!(
            d.exit_code_from_output("Process 12867 has exited with status 3\n"),
            Some(3)
        );
        assert_eq!(d.exit_code_from_output("total 12\n"), None);
        assert!(d.is_own_output("DAP server listening at: 127.0.0.1:4000\n"));
        assert!(d.is_own_output("2026-11-22T15:05:41Z error layer=dap recovered panic\n"));
        assert!(!d.is_own_output("Order total for user 482: 141.53\n"));
        assert!(d.is_start_output("Building ./cmd/shop\n"));
        assert!(!d.is_start_output("Order total for user 482: 141.53\n"));
    }

    #[test]
    fn packages_build_where_their_module_is() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("cmd/app");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(pkg.join("main.go"), "package main").unwrap();
        let mut spec = LaunchSpec::for_workspace(dir.path());
        spec.target = Target::Program(pkg.clone());
        let ((req, args), build) = start_arguments(&spec).unwrap();
        assert_eq!((req, args["mode"].as_str()), ("launch", Some("debug")));
        assert_eq!(build, pkg);
        spec.target = Target::Program(pkg.join("main.go"));
        assert_eq!(start_arguments(&spec).unwrap().1, pkg);
        spec.target = Target::Program(dir.path().join("app-binary"));
        let ((_, args), _) = start_arguments(&spec).unwrap();
        assert_eq!(args["mode"], "exec");
        assert!(args.get("output").is_none());
        spec.target = Target::Attach(42);
        let ((req, args), _) = start_arguments(&spec).unwrap();
        assert_eq!((req, args["processId"].as_i64()), ("attach", Some(42)));
    }
}
