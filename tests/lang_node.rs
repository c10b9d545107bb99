//! Node.js through a real js-debug: installing it from the npm registry,
//! refusing a tampered install, the exit-code preload, and a launch that
//! reaches js-debug's request for the child connection.

mod common;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::json;

const DEMO: &str = "assets/demo/node/prog.js";

fn installed_dir(data: &Path) -> std::path::PathBuf {
    data.join("pairdbg/adapters/js-debug-1.112.0")
}

#[test]
fn the_install_is_js_debug_checked_against_its_manifest() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let dir = installed_dir(&data);
    for f in [
        "vsDebugServer.js",
        "bootloader.js",
        "watchdog.js",
        "manifest.json",
    ] {
        assert!(dir.join(f).is_file(), "{f} missing in {}", dir.display());
    }
    // Only the vendored server was kept, not the rest of the package.
    let entries = std::fs::read_dir(data.join("pairdbg/adapters"))
        .unwrap()
        .count();
    assert_eq!(entries, 1, "one folder and no staging left");
    let out = Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .arg("adapters")
        .env("XDG_DATA_HOME", &data)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("js-debug"))
        .unwrap_or_default();
    assert!(line.contains("js-debug 1.112.0"), "{text}");
    assert!(text.contains("exception filters: all, uncaught"), "{text}");
}

/// The npm package as installed, repacked with its server changed: the
/// install refuses it and names both sums.
#[test]
fn a_tampered_package_is_refused() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let vendored = tmp.path().join("package/dist/vendor/js-debug");
    std::fs::create_dir_all(&vendored).unwrap();
    let dir = installed_dir(&data);
    std::fs::copy(dir.join("manifest.json"), vendored.join("manifest.json")).unwrap();
    let mut server = std::fs::read(dir.join("vsDebugServer.js")).unwrap();
    server.extend_from_slice(b"\n;require('child_process').execSync('true');\n");
    std::fs::write(vendored.join("vsDebugServer.js"), server).unwrap();
    let tgz = tmp.path().join("p.tgz");
    let st = Command::new("tar")
        .args(["czf", tgz.to_str().unwrap(), "package"])
        .current_dir(tmp.path())
        .status()
        .unwrap();
    assert!(st.success());
    let root = tmp.path().join("adapters");
    let err = pairdbg::adapters::js_debug::install::install_package_tarball(&tgz, &root)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("checksum mismatch")
            && err.contains("1a375a9370e46e786c4095b2a0d2fd74fe54b29564dba7f1e2fe34605104d258"),
        "{err}"
    );
    assert!(pairdbg::adapters::js_debug::install::find_installed(&root).is_none());
}

/// The preload writes the outermost program's exit code, not a child's.
#[test]
fn the_exit_shim_writes_the_programs_code() {
    if !tool_available("node") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let shim = tmp.path().join("exit_code.cjs");
    std::fs::write(&shim, pairdbg::adapters::js_debug::EXIT_SHIM).unwrap();
    let prog = tmp.path().join("p.js");
    std::fs::write(
        &prog,
        "require('child_process').spawnSync(process.execPath, ['-e', 'process.exit(9)']);\nprocess.exitCode = 3;\n",
    )
    .unwrap();
    let exit_file = tmp.path().join("exit");
    let run = |script: &Path, args: &[&str]| {
        Command::new("node")
            .arg(script)
            .args(args)
            .env("NODE_OPTIONS", format!("--require {}", shim.display()))
            .env("PAIRDBG_EXIT_FILE", &exit_file)
            .env_remove("PAIRDBG_EXIT_CLAIMED")
            .status()
            .unwrap()
    };
    assert_eq!(run(&prog, &[]).code(), Some(3));
    assert_eq!(pairdbg::adapters::take_exit_code(&exit_file), Some(3));
    let demo = repo_root().join(DEMO);
    assert_eq!(run(&demo, &["--crash"]).code(), Some(1));
    assert_eq!(pairdbg::adapters::take_exit_code(&exit_file), Some(1));
}

/// What a session does today: js-debug starts, launches the program, and
/// asks for the child connection the program runs on. The program is
/// running under the inspector until the session ends, and then is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launch_stops_in_the_program_on_its_child_connection_and_ends_with_it() {
    let Some((ws, mcp)) = js_mcp(&[(
        "prog.js",
        &std::fs::read_to_string(repo_root().join(DEMO)).unwrap(),
    )])
    .await
    else {
        return;
    };
    let (text, failed) = mcp
        .call(
            "debug_launch",
            json!({"program": "prog.js", "breakpoints": [{"file": "prog.js", "line": 14}],
                   "timeout_ms": 5000}),
        )
        .await;
    assert!(!failed, "{text}");
    // The program runs on the child connection js-debug asked for, and
    // stops there.
    assert!(
        text.contains("── STOPPED at prog.js:14 (main) ──"),
        "{text}"
    );
    assert!(text.contains("Process: prog.js ["), "{text}");
    // The loop block's locals and the function's, together.
    assert_eq!(local(&text, "x").as_deref(), Some("0"), "{text}");
    assert_eq!(
        local(&text, "items").as_deref(),
        Some("[1, 2, 3]"),
        "{text}"
    );
    assert_eq!(
        local(&text, "info").as_deref(),
        Some("<Object: name=\"spike\", n=3>"),
        "{text}"
    );
    let name = mcp
        .ok("debug_evaluate", json!({"expression": "info.name"}))
        .await;
    assert!(name.starts_with("info.name = \"spike\""), "{name}");
    let stepped = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert_eq!(stopped_line(&stepped), Some(11), "{stepped}");
    // js-debug runs `node ./prog.js` in the workspace, with its bootloader
    // and our preload.
    let running = || node_running(ws.path(), "prog.js");
    let started = poll(running, |p| !p.is_empty(), Duration::from_secs(20)).await;
    assert!(!started.is_empty(), "no node runs the program: {text}");
    let env = std::fs::read(format!("/proc/{}/environ", started[0])).unwrap_or_default();
    let env = String::from_utf8_lossy(&env);
    assert!(env.contains("PAIRDBG_EXIT_FILE="), "the exit file is set");
    assert!(env.contains("exit_code.cjs"), "the shim is preloaded");
    mcp.ok("debug_terminate", json!({})).await;
    let left = poll(running, |p| p.is_empty(), Duration::from_secs(10)).await;
    assert!(left.is_empty(), "still running: {left:?}");
    mcp.close().await;
}
