//! The small workspace the targets launch into and resolve paths in: a
//! program of each kind the adapters take, made once per run.

use std::path::Path;
use std::sync::OnceLock;

use pairdbg::session::validate::Workspace;

pub fn dir() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::Builder::new()
            .prefix("pairdbg-fuzz-")
            .tempdir()
            .expect("tempdir");
        for (name, text) in [
            ("prog.py", "x = 1\nprint(x)\n"),
            ("prog.c", "int main(void) {\n  return 0;\n}\n"),
            ("prog.js", "let x = 1;\nconsole.log(x);\n"),
            ("src/main.rs", "fn main() {\n    let x = 1;\n}\n"),
        ] {
            let p = dir.path().join(name);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        }
        dir
    })
    .path()
}

pub fn workspace() -> Workspace {
    Workspace::new(dir(), false)
}
