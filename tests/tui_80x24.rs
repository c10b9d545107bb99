//! The real binary in a real terminal at 80×24 on a Rust program (lldb):
//! the source keeps at least half the rows, the stack shows the whole
//! `inv::store::Store::find`, the status bar keeps the state and stands for
//! the agent's pane until an agent connects, and the output pane keeps the
//! program's stdout and stderr in write order. 120×40 and 200×50 keep the
//! source and the side panes side by side.

mod common;

use std::path::Path;
use std::process::Command;

use common::native::lldb_available;
use common::tmux::Tmux;
use common::*;
use serde_json::json;

const PROG: &str = r#"mod store {
    pub struct Store {
        pub items: Vec<(String, u32)>,
    }

    impl Store {
        pub fn find(&self, name: &str) -> Option<u32> {
            eprintln!("looking for {name}");
            let hit = self.items.iter().find(|(n, _)| n == name);
            hit.map(|(_, count)| *count)
        }
    }
}

fn main() {
    println!("stocking");
    let s = store::Store { items: vec![("bolt".to_string(), 3)] };
    println!("{:?}", s.find("bolt"));
}
"#;

const BREAK_LINE: u32 = 9;

/// `PROG` built as the crate `inv`, so its functions are `inv::…`.
fn build(ws: &Path) {
    std::fs::create_dir_all(ws.join("src")).expect("mkdir src");
    std::fs::write(ws.join("src/main.rs"), PROG).expect("write main.rs");
    let out = Command::new("rustc")
        .args([
            "-g",
            "--edition",
            "2021",
            "--crate-name",
            "inv",
            "-o",
            "inv",
        ])
        .arg("src/main.rs")
        .current_dir(ws)
        .output()
        .expect("run rustc");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Rows inside the source pane: from its top border to its bottom one.
fn source_rows(screen: &str) -> usize {
    let rows: Vec<&str> = screen.lines().collect();
    assert!(rows[0].starts_with("╭ src/main.rs"), "{screen}");
    rows.iter()
        .position(|r| r.starts_with("╰"))
        .expect("its bottom")
        - 1
}

fn status(screen: &str) -> &str {
    screen.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_80x24_a_rust_stop_shows_the_source_the_stack_and_the_output_in_order() {
    if !lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[]);
    build(ws.path());
    let at = format!("src/main.rs:{BREAK_LINE}");
    let t = Tmux::start(
        "screen80",
        ws.path(),
        &["--adapter", "lldb", "--break", &at, "--", "./inv"],
    );
    t.resize(80, 24);
    let s = t
        .wait_for("the stop in Store::find at 80×24", |s| {
            s.lines().count() <= 24
                && s.contains("▶ inv::store::Store::find")
                && s.contains("▌looking for bolt")
        })
        .await;
    eprintln!("{s}");
    assert!(source_rows(&s) >= 12, "{s}");
    assert!(
        status(&s).starts_with(" stopped: breakpoint "),
        "the state and the reason lead the status bar: {s}"
    );
    assert!(status(&s).contains("no agent yet"), "{s}");
    assert!(!s.contains("╭ agent"), "no agent pane before an agent: {s}");
    let stocking = s.find("stocking").expect("stdout");
    let looking = s.find("▌looking for bolt").expect("stderr, marked");
    assert!(stocking < looking, "in write order: {s}");

    // An agent joins: its pane takes room, and the source keeps its rows.
    let agent = mcp_in(ws.path()).await;
    let v = agent.ok("debug_status", json!({})).await;
    assert!(v.contains("inv::store::Store::find"), "{v}");
    let s = t
        .wait_for("the agent's pane", |s| {
            s.contains("╭ agent") && s.contains("status")
        })
        .await;
    eprintln!("{s}");
    assert!(source_rows(&s) >= 12, "{s}");
    assert!(s.contains("▶ inv::store::Store::find"), "{s}");
    assert!(status(&s).starts_with(" stopped: breakpoint "), "{s}");
    assert!(!status(&s).contains("no agent yet"), "{s}");

    // Larger screens keep the side panes beside the source.
    for (w, h) in [(120u16, 40u16), (200, 50)] {
        t.resize(w, h);
        let s = t
            .wait_for("the wide layout", |s| {
                s.lines()
                    .next()
                    .is_some_and(|l| l.starts_with("╭ src/main.rs") && l.contains("╭ call stack"))
                    && s.lines()
                        .any(|l| l.starts_with("╰") && l.chars().count() == w as usize)
            })
            .await;
        eprintln!("{s}");
        assert!(s.contains("inv::store::Store::find"), "{s}");
        assert!(s.contains("╭ agent"), "{s}");
        assert!(source_rows(&s) >= (h as usize) / 2, "{s}");
    }
    agent.close().await;
    t.keys(&["q", "y"]);
}
