//! Go as its developers run it today: `pairdbg adapters` names both the Go
//! and the delve it found, and warns of a delve older than that Go.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use common::tmux::{Tmux, current_line};
use common::*;
use serde_json::json;

/// `pairdbg adapters`, with `path` for PATH and `data_home` for pairdbg's
/// data directory (where `adapters install go` puts its delve) where given.
fn adapters_listing(path: Option<&str>, data_home: Option<&Path>) -> String {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pairdbg"));
    cmd.arg("adapters").current_dir(repo_root());
    if let Some(d) = data_home {
        cmd.env("XDG_DATA_HOME", d);
    }
    if let Some(p) = path {
        cmd.env("PATH", p);
    }
    let out = cmd.output().expect("run pairdbg adapters");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn go_version() -> String {
    let out = Command::new("go")
        .args(["env", "GOVERSION"])
        .output()
        .expect("go env");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn adapters_lists_the_go_and_the_delve_it_found() {
    if !go_available() {
        return;
    }
    // The delve the suite's set-up installed: on a clean machine it is in
    // pairdbg's own data directory, not on PATH.
    let out = adapters_listing(None, None);
    let go = go_version();
    let line = out
        .lines()
        .find(|l| l.starts_with("delve"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.contains("delve 1.") && line.contains(&format!(", {go} (")),
        "{line}"
    );
    // The machine's delve was built for its Go: no warning.
    assert!(!out.contains("warning: delve"), "{out}");
}

#[test]
fn adapters_warns_of_a_delve_older_than_go() {
    if !go_available() {
        return;
    }
    // A dlv that reports Debian's old version; the Go is the machine's own.
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let dlv = bin.join("dlv");
    std::fs::write(
        &dlv,
        "#!/bin/sh\necho 'Delve Debugger'\necho 'Version: 1.20.2'\necho 'Build: $Id: old $'\n",
    )
    .unwrap();
    std::fs::set_permissions(&dlv, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = adapters_listing(Some(&path), Some(&dir.path().join("data")));
    let go = go_version();
    assert!(
        out.contains(&format!("delve 1.20.2, {go}")),
        "the delve line names both versions:\n{out}"
    );
    assert!(
        out.contains(&format!(
            "warning: delve 1.20.2 is older than {go}: it may not read what this Go builds; \
             update it with: pairdbg adapters install go"
        )),
        "{out}"
    );
}

const TAGGED_MAIN: &str = "package main

import \"fmt\"

func main() {
\tfmt.Println(\"mode:\", mode())
}
";

const INTEGRATION: &str = "//go:build integration

package main

func mode() string {
\tm := \"integration\"
\treturn m
}
";

const PLAIN: &str = "//go:build !integration

package main

func mode() string { return \"plain\" }
";

const LAUNCH_JSON: &str = r#"{
    // vscode-go's buildFlags: the integration build.
    "configurations": [
        {"name": "Integration", "type": "go", "request": "launch", "mode": "debug",
         "program": "${workspaceFolder}", "buildFlags": "-tags=integration"}
    ]
}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn launch_json_build_flags_select_the_tagged_file() {
    if !go_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/tagged\n\ngo 1.22\n"),
        ("main.go", TAGGED_MAIN),
        ("integration.go", INTEGRATION),
        ("plain.go", PLAIN),
        (".vscode/launch.json", LAUNCH_JSON),
    ]);
    // The file only `-tags=integration` builds is where it stops.
    let t = Tmux::start(
        "go-tags",
        ws.path(),
        &["--config", "Integration", "--break", "integration.go:6"],
    );
    let s = t
        .wait_for("the breakpoint in the tagged file", |s| {
            s.contains("stopped: breakpoint") && current_line(s) == Some(6)
        })
        .await;
    assert!(
        s.contains("integration.go") && s.contains("m := \"integration\""),
        "{s}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_toolchain_that_cannot_be_downloaded_is_named_in_one_line() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        (
            "go.mod",
            "module example.com/future\n\ngo 1.22\n\ntoolchain go1.99.0\n",
        ),
        ("main.go", "package main\n\nfunc main() {}\n"),
    ]);
    // As Go ships it: go fetches the toolchain a module names.
    let mcp = mcp_with_env(ws.path(), &[], &[("GOTOOLCHAIN", Path::new("auto"))]).await;
    let err = mcp.fails("debug_launch", json!({"program": "."})).await;
    assert!(
        err.contains("the Go toolchain go1.99.0 that go.mod asks for cannot be downloaded ("),
        "{err}"
    );
    // The one line instead of go's whole answer.
    assert!(!err.contains("golang.org/toolchain@"), "{err}");
    mcp.close().await;
}

#[test]
fn reads_the_go_that_built_a_program() {
    if !go_available() {
        return;
    }
    let ws = workspace(&[
        ("go.mod", "module example.com/built\n\ngo 1.22\n"),
        ("main.go", "package main\n\nfunc main() {}\n"),
    ]);
    let out = Command::new("go")
        .args(["build", "-o", "prog", "."])
        .current_dir(ws.path())
        .output()
        .expect("go build");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        pairdbg::adapters::delve::versions::built_by(&ws.path().join("prog")),
        Some(go_version())
    );
    // A script is no Go binary: nothing is read, nothing guessed.
    assert_eq!(
        pairdbg::adapters::delve::versions::built_by(&ws.path().join("go.mod")),
        None
    );
}
