//! The bundled TypeScript demo in a workspace of its own, compiled by a
//! real tsc with its source map beside it.

use std::path::Path;
use std::process::Command;

use super::{repo_root, workspace};

pub fn compiled_demo(tsc: &Path) -> tempfile::TempDir {
    let demo = repo_root().join("assets/demo/typescript");
    let read = |f: &str| std::fs::read_to_string(demo.join(f)).unwrap();
    let ws = workspace(&[
        ("prog.ts", &read("prog.ts")),
        ("tsconfig.json", &read("tsconfig.json")),
    ]);
    let st = Command::new(tsc)
        .args(["-p", "."])
        .current_dir(ws.path())
        .status()
        .unwrap();
    assert!(st.success(), "tsc compiles the demo");
    assert!(
        ws.path().join("prog.js.map").is_file(),
        "with its source map"
    );
    ws
}

/// The node_modules folder holding tsx, installed where tsc is (scripts/test
/// installs both).
pub fn tsx_modules() -> Option<std::path::PathBuf> {
    let tsc = super::tsc_available()?;
    let modules = tsc.parent()?.parent()?.to_path_buf();
    if modules.join("tsx/package.json").is_file() {
        return Some(modules);
    }
    let fix = "npm install --prefix ~/.cache/pairdbg-tests/typescript tsx";
    if std::env::var_os("CI").is_some() {
        panic!("tsx is required in CI: install it with `{fix}` (scripts/test does)");
    }
    eprintln!("\n!!!!! SKIPPED: tsx is not installed ({fix}) !!!!!\n");
    None
}

/// The demo's `.ts` alone, with tsx where `--import tsx` finds it.
pub fn demo_for_tsx(modules: &Path) -> tempfile::TempDir {
    let demo = repo_root().join("assets/demo/typescript/prog.ts");
    let ws = workspace(&[("prog.ts", &std::fs::read_to_string(demo).unwrap())]);
    std::os::unix::fs::symlink(modules, ws.path().join("node_modules")).unwrap();
    ws
}
