//! Core files of small crashing programs, written where the kernel's
//! core_pattern puts them; where it hands them to a helper program, a
//! core is taken with gdb's `gcore` at the crash instead.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `bin` in `dir` with the core limit raised, lets it crash, and
/// returns the core it left.
pub fn crash_with_core(dir: &Path, bin: &Path, env: &[(&str, &str)]) -> PathBuf {
    crash_with_core_args(dir, bin, &[], env)
}

/// As `crash_with_core`, with arguments for `bin` (a script for an
/// interpreter).
pub fn crash_with_core_args(
    dir: &Path,
    bin: &Path,
    args: &[&str],
    env: &[(&str, &str)],
) -> PathBuf {
    let pattern = std::fs::read_to_string("/proc/sys/kernel/core_pattern").unwrap_or_default();
    let pattern = pattern.trim();
    // A plain name is a file in the program's directory; anything else
    // (a helper program, a directory elsewhere) is not ours to read.
    if pattern.is_empty() || pattern.starts_with('|') || pattern.contains('/') {
        return gcore_at_crash(dir, bin, args);
    }
    let mut cmd = Command::new(bin);
    cmd.args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(|| {
            let unlimited = libc::rlimit {
                rlim_cur: libc::RLIM_INFINITY,
                rlim_max: libc::RLIM_INFINITY,
            };
            if libc::setrlimit(libc::RLIMIT_CORE, &unlimited) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let status = cmd.status().expect("run the crashing program");
    assert!(!status.success(), "{} did not crash", bin.display());
    let stem: String = pattern.chars().take_while(|c| *c != '%').collect();
    std::fs::read_dir(dir)
        .expect("read the program's directory")
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&stem))
                && p.is_file()
                && p != bin
        })
        .unwrap_or_else(|| panic!("no core {pattern:?} in {}", dir.display()))
}

/// gdb runs the program to its crash and writes the core there.
fn gcore_at_crash(dir: &Path, bin: &Path, args: &[&str]) -> PathBuf {
    let core = dir.join("core");
    let st = Command::new("gdb")
        .current_dir(dir)
        .args(["-nx", "-batch", "-ex", "run", "-ex"])
        .arg(format!("gcore {}", core.display()))
        .arg("--args")
        .arg(bin)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("run gdb");
    assert!(st.success() && core.is_file(), "gdb wrote no core");
    core
}

/// The core `pairdbg run --keep-core` lets `./bin_name` write in `dir`
/// (with the program's code in it), where core_pattern names a file
/// there; None elsewhere.
pub fn core_by_keep_core(dir: &Path, bin_name: &str) -> Option<PathBuf> {
    let pattern = std::fs::read_to_string("/proc/sys/kernel/core_pattern").unwrap_or_default();
    if pattern.trim() != "core" {
        eprintln!("\n!!!!! SKIPPED: core_pattern {pattern:?} puts no core here !!!!!\n");
        return None;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_pairdbg"))
        .args(["run", "--keep-core", "--", &format!("./{bin_name}")])
        .current_dir(dir)
        .output()
        .expect("run pairdbg");
    let core = dir.join("core");
    assert!(
        core.is_file(),
        "no core: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some(core)
}

/// A Python program that raises in `settle`, line 12.
pub const CRASH_PY: &str = "\
class Order:
    def __init__(self, id, total):
        self.id = id
        self.total = total


def settle(orders, budget):
    spent = 0
    label = \"week 48\"
    for o in orders:
        spent += o.total
    return budget / (budget - spent)


orders = [Order(1, 9.5), Order(2, 10.5)]
print(settle(orders, 20))
";

/// Runs crash.py (`CRASH_PY`) under coredumpy in `ws` and returns the dump it wrote,
/// relative to `ws`.
pub fn python_dump_of_crash(ws: &Path) -> String {
    let out = std::process::Command::new("python3")
        .args(["-m", "coredumpy", "run", "--directory", "dumps", "crash.py"])
        .current_dir(ws)
        .output()
        .expect("run python3");
    assert!(!out.status.success(), "crash.py did not raise");
    let dumps: Vec<_> = std::fs::read_dir(ws.join("dumps"))
        .expect("coredumpy wrote its dump directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(dumps.len(), 1, "one dump: {dumps:?}");
    format!("dumps/{}", dumps[0])
}

/// A Python program whose `read` segfaults in ctypes at line 7.
pub const SEGV_PY: &str = "\
import ctypes


def read(orders, where):
    count = len(orders)
    label = \"week 48\"
    return ctypes.string_at(where)


read([1.5, 2.5], 0)
";

/// The interpreter python3 runs, not a launcher script in front of it.
fn python_executable() -> std::path::PathBuf {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("run python3");
    std::path::PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
}

/// Runs segv.py (`SEGV_PY`) on the real interpreter in `ws` with the core
/// limit raised and returns its core, relative to `ws`.
pub fn python_core_of_segv(ws: &Path) -> String {
    let core = crash_with_core_args(ws, &python_executable(), &["segv.py"], &[]);
    core.strip_prefix(ws).unwrap_or(&core).display().to_string()
}
