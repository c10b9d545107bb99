//! The command line: help, adapters, and `run` for agents with only a shell.

mod common;

use std::process::Command;

use common::*;

fn pairdbg(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(args)
        .current_dir(repo_root())
        .output()
        .expect("run pairdbg");
    (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn an_unknown_theme_names_the_ones_there_are() {
    let (_, err, code) = pairdbg(&["--theme", "nosuch", "--", "assets/demo/order.py"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("--theme: no theme \"nosuch\"")
            && err.contains("dark, gruvbox, high-contrast, light"),
        "{err}"
    );
}

#[test]
fn help_has_examples() {
    let (out, _, code) = pairdbg(&["--help"]);
    assert_eq!(code, 0);
    for s in [
        "Examples:",
        "pairdbg run --break",
        "pairdbg mcp",
        "pairdbg adapters install python",
        "--allow-outside-workspace",
        "--attach <PID|HOST:PORT>",
        "--map <LOCAL=REMOTE>",
        "--language <LANG>",
    ] {
        assert!(out.contains(s), "help lacks {s:?}:\n{out}");
    }
}

#[test]
fn adapters_lists_debugpy_with_its_version() {
    if !debugpy_available() {
        return;
    }
    let (out, _, code) = pairdbg(&["adapters"]);
    assert_eq!(code, 0);
    let line = out
        .lines()
        .find(|l| l.starts_with("debugpy"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("python") && line.contains("debugpy 1."),
        "{line}"
    );
    // Each found adapter is asked what it can do.
    assert!(
        out.contains("capabilities: ") && out.contains("SetVariable"),
        "{out}"
    );
    assert!(out.contains("exception filters: raised, uncaught"), "{out}");
    // Every adapter has a line, found or with the command that installs it.
    for name in ["debugpy", "delve"] {
        assert!(out.lines().any(|l| l.starts_with(name)), "{name}: {out}");
    }
    // By name as well as by language; an installed one says so.
    let (out, _, code) = pairdbg(&["adapters", "install", "debugpy"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("is already installed"), "{out}");
    let (_, err, code) = pairdbg(&["adapters", "install", "cobol"]);
    assert_eq!(code, 2);
    assert!(err.contains("cobol is not supported"), "{err}");
}

#[test]
fn run_prints_the_first_stop() {
    if !debugpy_available() {
        return;
    }
    let (out, err, code) = pairdbg(&[
        "run",
        "--break",
        "assets/demo/order.py:44",
        "--",
        "assets/demo/order.py",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("── STOPPED at assets/demo/order.py:44 (process_order) ──"),
        "{out}"
    );
    assert_eq!(local(&out, "subtotal").as_deref(), Some("119.94"), "{out}");

    let (out, err, code) = pairdbg(&[
        "run",
        "--json",
        "--break",
        "assets/demo/order.py:36",
        "--",
        "assets/demo/order.py",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["location"]["function"], "calculate_discount");
    assert_eq!(v["locals"]["rate"]["value"], "0.1");

    // Without a breakpoint the program runs to its end.
    let (out, _, code) = pairdbg(&["run", "--", "assets/demo/order.py"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("EXITED with code 0") && out.contains("Order total for user 482: 141.53"),
        "{out}"
    );
}

/// `pairdbg run … | head`: the reader goes before the viewport is
/// printed; pairdbg ends as usual, with no panic and nothing left running.
#[test]
fn run_into_a_closed_pipe_ends_quietly() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("many.py", "for i in range(20000):\n    print(i)\n")]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["run", "--", "many.py"])
        .current_dir(ws.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run pairdbg");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for pairdbg");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn run_refuses_bad_breakpoints() {
    let (_, err, code) = pairdbg(&[
        "run",
        "--break",
        "assets/demo/order.py:x",
        "--",
        "assets/demo/order.py",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("\"x\" is not a line number"), "{err}");
    let (_, err, code) = pairdbg(&[
        "run",
        "--break",
        "assets/demo/order.py:900",
        "--",
        "assets/demo/order.py",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.contains("--break assets/demo/order.py:900: line 900 is past the end")
            && err.contains("which has 61 lines"),
        "{err}"
    );
}

/// `--from` installs js-debug from a release the user downloaded, refuses a
/// file that is not one, and is refused by adapters that install otherwise.
#[test]
fn adapters_install_from_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let release = tmp.path().join("js-debug");
    std::fs::create_dir_all(release.join("src")).unwrap();
    std::fs::write(release.join("src/dapDebugServer.js"), "// server\n").unwrap();
    let tgz = tmp.path().join("js-debug-dap-v1.117.0.tar.gz");
    let tar = |file: &std::path::Path, what: &str| {
        let st = Command::new("tar")
            .args(["czf", file.to_str().unwrap(), what])
            .current_dir(tmp.path())
            .status()
            .unwrap();
        assert!(st.success());
    };
    tar(&tgz, "js-debug");
    let data = tmp.path().join("data");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args(args)
            .env("XDG_DATA_HOME", &data)
            .current_dir(repo_root())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        (text, out.status.code())
    };
    let (text, code) = run(&[
        "adapters",
        "install",
        "node",
        "--from",
        tgz.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("js-debug 1.117.0 installed"), "{text}");
    assert!(
        data.join("pairdbg/adapters/js-debug-1.117.0/src/dapDebugServer.js")
            .is_file(),
        "{text}"
    );

    std::fs::write(tmp.path().join("other.txt"), "x").unwrap();
    let wrong = tmp.path().join("wrong.tar.gz");
    tar(&wrong, "other.txt");
    let (text, code) = run(&[
        "adapters",
        "install",
        "typescript",
        "--from",
        wrong.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("holds nothing under js-debug/"), "{text}");

    let (text, code) = run(&["adapters", "install", "go", "--from", tgz.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("delve installs through its package manager"),
        "{text}"
    );
}
