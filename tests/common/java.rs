//! The Java demo copied per test (each builds its own `target/`), and the
//! JVMs a pairdbg process runs.

use std::path::Path;

use super::{comm, descendants, repo_root};

/// A copy of the Maven demo, without any `target/` a build left in it.
pub fn java_demo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&repo_root().join("assets/demo/java"), dir.path());
    dir
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read demo").flatten() {
        let name = e.file_name();
        if name == "target" {
            continue;
        }
        if e.path().is_dir() {
            copy_dir(&e.path(), &to.join(&name));
        } else {
            std::fs::copy(e.path(), to.join(&name)).expect("copy");
        }
    }
}

/// The JVMs (the server's and the program's) under `root`.
pub fn jvms(root: u32) -> Vec<u32> {
    descendants(root)
        .into_iter()
        .filter(|p| comm(*p).as_deref() == Some("java"))
        .collect()
}
