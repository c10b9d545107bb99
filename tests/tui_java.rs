//! The TUI on the Java demo in a real terminal (tmux): Java highlighting and
//! the current line, the variables tree opening a list and a map, a watch,
//! the console, a step, and a quit that leaves no JVM behind; and a
//! launch.json attach to a JVM already running, which the quit leaves
//! running.

mod common;

use std::time::Duration;

use common::java::{java_demo, jdwp_jvm, jvms};
use common::remote::runs_freely;
use common::tmux::{Tmux, current_line};
use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_debugs_the_java_demo_from_the_keyboard() {
    if !java_available() || !Tmux::available() {
        return;
    }
    let ws = java_demo();
    let t = Tmux::start(
        "java-keys",
        ws.path(),
        &["--break", "src/main/java/shop/Main.java:24", "--", "."],
    );
    // Maven compiles the demo before the first stop.
    let s = t
        .wait_for_within(
            "the breakpoint, the source highlighted as Java",
            Duration::from_secs(120),
            |s| {
                s.contains("stopped: breakpoint")
                    && current_line(s) == Some(24)
                    && s.contains("Main.main  Main.java:24")
            },
        )
        .await;
    assert!(s.contains("▸ orders"), "the list in the tree: {s}");
    let colours = t
        .wait_for_escapes("Java syntax colours", |s| {
            // `for (Order order : orders)` split by colour: keyword,
            // punctuation, the type, the operator.
            s.lines()
                .filter_map(|l| l.split_once("for")?.1.split_once("orders)"))
                .any(|(head, _)| head.matches("38;2;").count() >= 3)
        })
        .await;
    assert!(
        colours
            .lines()
            .any(|l| l.contains("48;2;") && l.contains("withTax")),
        "the current line has its background: {colours}"
    );
    let pid = t.pane_pid().expect("pane pid");
    let java = jvms(pid);
    assert!(
        java.len() >= 2,
        "the server's and the program's JVMs: {java:?}"
    );

    // Focus the variables pane; `args` is its first row, `orders` the next.
    t.keys(&["Tab", "Tab", "j", "Enter"]);
    t.wait_for("the list's elements", |s| {
        let s = squash(s);
        s.contains("▾ orders")
            && s.contains("[0] = Order{id=1, total=9.5}")
            && s.contains("[2] = Order{id=3, total=12.25}")
    })
    .await;
    // Past the three elements to the map.
    t.keys(&["j", "j", "j", "j", "Enter"]);
    t.wait_for("the map's entries", |s| {
        let s = squash(s);
        s.contains("▾ stock") && s.contains("\"widget\" = 4") && s.contains("\"gadget\" = 7")
    })
    .await;

    t.keys(&["e", "orders.size() * 2", "Enter"]);
    t.wait_for("the console answer", |s| s.contains("6  (int)"))
        .await;
    t.keys(&["w"]);
    t.keys(&["-l", "sum + 1"]);
    t.keys(&["Enter"]);
    t.wait_for("the watch", |s| s.contains("sum + 1 = 1.0"))
        .await;

    // Step over: the line moves to 25 and the value the call returned is
    // on the line it was assigned.
    t.keys(&["n"]);
    t.wait_for("the step", |s| {
        s.contains("stopped: step") && current_line(s) == Some(25) && s.contains("taxed = 10.45")
    })
    .await;

    let tree = descendants(pid);
    t.keys(&["q", "y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "q should end pairdbg and so the tmux session");
    assert!(
        wait_dead(&tree, Duration::from_secs(10)).await.is_empty(),
        "no JVM, no server survives the quit: {tree:?}"
    );
}

const TICKS: &str = "public class Ticks {
    public static void main(String[] args) throws Exception {
        long ticks = 0;
        while (true) {
            ticks += 1;
            Thread.sleep(10);
        }
    }
}
";

/// vscode-java's attach configuration (`hostName`, `port`) reaches a JVM
/// the user started with JDWP; quitting detaches and the JVM runs on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_launch_json_attach_reaches_a_running_jvm_and_leaves_it_running() {
    if !java_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("Ticks.java", TICKS)]);
    let (jvm, port) = jdwp_jvm(ws.path(), "Ticks");
    let pid = jvm.0.id();
    std::fs::create_dir_all(ws.path().join(".vscode")).expect("mkdir");
    std::fs::write(
        ws.path().join(".vscode/launch.json"),
        format!(
            r#"{{"version": "0.2.0", "configurations": [
                {{"name": "Attach to Ticks", "type": "java", "request": "attach",
                  "hostName": "127.0.0.1", "port": {port}}}]}}"#
        ),
    )
    .expect("launch.json");
    let t = Tmux::start(
        "java-attach",
        ws.path(),
        &["--config", "'Attach to Ticks'", "--break", "Ticks.java:5"],
    );
    let s = t
        .wait_for_within(
            "the breakpoint in the running JVM",
            Duration::from_secs(60),
            |s| {
                s.contains("stopped: breakpoint")
                    && current_line(s) == Some(5)
                    && s.contains("Ticks.main")
            },
        )
        .await;
    assert!(
        s.contains("ticks += 1;"),
        "the source pane shows the line: {s}"
    );
    // The variables pane's `ticks = N`, not the source's `ticks = 0;`.
    let ticks: u64 = squash(&s)
        .split("ticks = ")
        .skip(1)
        .find_map(|r| r.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("ticks read: {s}"));
    assert!(ticks > 0, "{s}");

    t.keys(&["q"]);
    t.wait_for("the quit question", |s| {
        s.contains("detaches (the process keeps running)")
    })
    .await;
    t.keys(&["y"]);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(20), std::future::pending::<()>()).await;
    }
    assert!(!t.alive(), "pairdbg is still running after the quit");
    assert!(runs_freely(pid).await, "the JVM: {:?}", stat(pid));
    drop(jvm);
    assert!(
        wait_dead(&[pid], Duration::from_secs(10)).await.is_empty(),
        "the test's JVM ends with the test"
    );
}
