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
