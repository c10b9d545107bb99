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

/// `dir/<class>.java` compiled with `-g` and run in a JVM that listens for
/// a debugger on a loopback port the system picks
/// (`-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0`):
/// the JVM, killed when dropped, and its port, read from the line the JDWP
/// agent prints once it listens.
pub fn jdwp_jvm(dir: &Path, class: &str) -> (super::Running, u16) {
    use std::io::BufRead;
    let classes = dir.join("classes");
    let built = std::process::Command::new("javac")
        .args(["-g", "-d"])
        .arg(&classes)
        .arg(dir.join(format!("{class}.java")))
        .status()
        .expect("javac");
    assert!(built.success());
    let mut jvm = super::Running(
        std::process::Command::new("java")
            .arg("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:0")
            .arg("-cp")
            .arg(&classes)
            .arg(class)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("java"),
    );
    let mut first = String::new();
    std::io::BufReader::new(jvm.0.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("the JDWP line");
    let port: u16 = first
        .trim()
        .rsplit(' ')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in {first:?}"));
    (jvm, port)
}
