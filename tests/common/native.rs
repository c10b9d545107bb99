//! Helpers for the C and Rust tests: whether lldb-dap and gdb are here, and the demo
//! programs copied into a scratch workspace and built there, so their debug
//! information names the files the tests set breakpoints in.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::repo_root;

/// True when lldb-dap is found. Without it a test fails under CI and skips
/// loudly elsewhere.
pub fn lldb_available() -> bool {
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .chain([PathBuf::from("/usr/bin")])
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|r| r.flatten())
        .any(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n == "lldb-dap" || n.starts_with("lldb-dap-") || n.starts_with("lldb-vscode-")
        });
    if !found {
        if std::env::var_os("CI").is_some() {
            panic!(
                "lldb-dap is required in CI: install it with `pairdbg adapters install c` (apt-get install -y lldb-22; scripts/test does)"
            );
        }
        eprintln!(
            "\n!!!!! SKIPPED: lldb-dap is not installed (apt-get install -y lldb-22) !!!!!\n"
        );
    }
    found
}

/// True when a gdb with DAP is installed, or `pairdbg adapters install gdb`
/// installs one (once per test binary). Without it a test fails under CI
/// and skips loudly elsewhere.
pub fn gdb_available() -> bool {
    static OK: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let got = OK.get_or_init(|| {
        let out = Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args(["adapters", "install", "gdb"])
            .output()
            .map_err(|e| e.to_string())?;
        match out.status.success() {
            true => Ok(()),
            false => Err(format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )),
        }
    });
    match got {
        Ok(()) => true,
        Err(why) => {
            let fix = "pairdbg adapters install gdb";
            if std::env::var_os("CI").is_some() {
                panic!("gdb is required in CI: install it with `{fix}` (scripts/test does): {why}");
            }
            eprintln!("\n!!!!! SKIPPED: gdb could not be installed ({fix}): {why} !!!!!\n");
            false
        }
    }
}

/// A Rust program holding a value of each kind the value tests read.
pub const RUST_VALUES: &str = r#"//! Values of every Rust kind, for the debugger's value tests.

#[derive(Debug, Clone)]
struct Item {
    id: u32,
    name: String,
}

#[derive(Debug)]
enum Cat {
    Tool,
    Food { perishable: bool, days: u32 },
    Gadget(String, u8),
}

struct Pair(u32, u32);

fn find(items: &[Item], id: &u32) -> Option<Item> {
    for item in items {
        if item.id == *id {
            return Some(item.clone());
        }
    }
    None
}

fn parse(text: &str) -> Result<u32, String> {
    text.parse::<u32>().map_err(|_| String::from("bad"))
}

fn main() {
    let items = vec![
        Item { id: 7, name: String::from("hammer") },
        Item { id: 42, name: String::from("saw") },
    ];
    let none: Option<Item> = find(&items, &1);
    let some: Option<&str> = Some("yes");
    let found: Option<Item> = find(&items, &42);
    let ok: Result<u32, String> = parse("3");
    let err: Result<u32, String> = parse("x");
    let c_tool = Cat::Tool;
    let c_food = Cat::Food { perishable: true, days: 6 };
    let c_gad = Cat::Gadget(String::from("FM"), 2);
    let results: Vec<Result<u32, String>> = vec![Ok(2)];
    let small: u8 = 2;
    let p = &items[0];
    let pair = Pair(1, 5);
    println!("{:?} {:?} {:?} {:?} {:?}", none, some, found, ok, err);
    println!("{:?} {:?} {:?} {:?} {} {} {}", c_tool, c_food, c_gad, results, small, p.name, pair.0 + pair.1);
}
"#;

/// A Rust program that loops for ever, line 4 inside the loop: for
/// killing and freezing it while it runs or stops.
pub const RUST_LOOP: &str = "\
fn main() {
    let mut count: u64 = 0;
    loop {
        count = std::hint::black_box(count + 1);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}
";

/// The 1-based line of `RUST_VALUES` that holds `needle`.
pub fn rust_values_line(needle: &str) -> u64 {
    RUST_VALUES
        .lines()
        .position(|l| l.contains(needle))
        .map(|i| i as u64 + 1)
        .unwrap_or_else(|| panic!("no line holds {needle:?}"))
}

/// `RUST_VALUES` as `ws/src/main.rs`, built with `rustc -g` into `ws/values`.
pub fn build_rust_values(ws: &Path) -> PathBuf {
    build_rust_source(ws, RUST_VALUES)
}

/// `source` as `ws/src/main.rs`, built with `rustc -g` into `ws/values`.
pub fn build_rust_source(ws: &Path, source: &str) -> PathBuf {
    std::fs::create_dir_all(ws.join("src")).expect("mkdir src");
    let src = ws.join("src/main.rs");
    std::fs::write(&src, source).expect("write main.rs");
    let bin = ws.join("values");
    let out = Command::new("rustc")
        .args(["-g", "--edition", "2021", "-o"])
        .arg(&bin)
        .arg("src/main.rs")
        .current_dir(ws)
        .output()
        .expect("run rustc");
    assert!(
        out.status.success(),
        "rustc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    bin
}

/// The C demo, built with `cc -g -O0` into `ws/inventory`.
pub fn build_c_demo(ws: &Path) -> PathBuf {
    let src = ws.join("inventory.c");
    std::fs::copy(repo_root().join("assets/demo/c/inventory.c"), &src).expect("copy the C demo");
    let bin = ws.join("inventory");
    build_c(&src, &bin);
    bin
}

pub fn build_c(src: &Path, bin: &Path) {
    let st = Command::new("cc")
        .args(["-g", "-O0", "-o"])
        .arg(bin)
        .arg(src)
        .status()
        .expect("run cc");
    assert!(st.success(), "cc failed on {}", src.display());
}

/// A C++ program, built with `c++ -g -O0`.
pub fn build_cpp(src: &Path, bin: &Path) {
    let st = Command::new("c++")
        .args(["-g", "-O0", "-o"])
        .arg(bin)
        .arg(src)
        .status()
        .expect("run c++");
    assert!(st.success(), "c++ failed on {}", src.display());
}

/// The Rust demo, built with cargo into `ws/target`; returns the binary.
pub fn build_rust_demo(ws: &Path) -> PathBuf {
    build_rust_demo_panicking(ws, "unwind")
}

/// The Rust demo built with `panic` (Cargo's profile setting) `unwind` or
/// `abort`: each links its own panic runtime.
pub fn build_rust_demo_panicking(ws: &Path, panic: &str) -> PathBuf {
    let demo = repo_root().join("assets/demo/rust");
    std::fs::create_dir_all(ws.join("src")).expect("mkdir src");
    std::fs::copy(demo.join("Cargo.toml"), ws.join("Cargo.toml")).expect("copy Cargo.toml");
    std::fs::copy(demo.join("src/main.rs"), ws.join("src/main.rs")).expect("copy main.rs");
    let out = Command::new(env!("CARGO"))
        .args(["build", "--quiet", "--offline"])
        .current_dir(ws)
        .env("CARGO_TARGET_DIR", ws.join("target"))
        .env("CARGO_PROFILE_DEV_PANIC", panic)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    assert!(
        out.status.success(),
        "cargo build of the Rust demo failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    ws.join("target/debug/shop")
}

/// A C program that runs until it is killed, calling `tick` (line 4) in a loop.
pub const LOOPER: &str = r#"#include <unistd.h>

static int tick(int n) {
    int doubled = n * 2;
    return doubled;
}

int main(void) {
    int total = 0;
    for (int n = 0;; n++) {
        total += tick(n);
        usleep(2000);
    }
    return total;
}
"#;

/// The looper, built in `ws` and started there.
pub fn start_looper(ws: &Path) -> super::Running {
    std::fs::write(ws.join("looper.c"), LOOPER).expect("write looper.c");
    build_c(&ws.join("looper.c"), &ws.join("looper"));
    super::Running(
        Command::new(ws.join("looper"))
            .spawn()
            .expect("start the looper"),
    )
}

/// A C function with a 100,000-int stack array and two statics, one of
/// them a 200,000-int array; line 14 is its return.
pub const BIG_C: &str = r#"#include <stdio.h>
int file_global = 3;

static int counter(void) {
    static int calls = 0;
    static int big[200000];
    int local = 5;
    int stackarr[100000];
    calls++;
    for (int i = 0; i < 200000; i++) big[i] = i;
    for (int i = 0; i < 100000; i++) stackarr[i] = i * 2;
    int sum = calls + local;
    sum += big[199999] + stackarr[99999];
    return sum;
}

int main(void) {
    int r = counter();
    printf("%d\n", r + file_global);
    return 0;
}
"#;
