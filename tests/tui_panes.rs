//! Panes, paging, prompts and keys in the real binary in a real terminal
//! (tmux): each test is named after what the person sees.

mod common;

use std::process::Command;
use std::time::Duration;

use common::tmux::{Tmux, current_line};
use common::*;

/// Sets the terminal's size, as a person resizing the window.
fn resize(t: &Tmux, w: u16, h: u16) {
    let status = Command::new("tmux")
        .args(["-L", &t.socket, "resize-window", "-x"])
        .arg(w.to_string())
        .arg("-y")
        .arg(h.to_string())
        .status()
        .expect("resize-window");
    assert!(status.success());
}

/// Waits until the tmux session has ended (pairdbg quit), 10 s at most.
async fn ended(t: &Tmux) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while t.alive() && tokio::time::Instant::now() < deadline {
        let _ = tokio::time::timeout(Duration::from_millis(50), std::future::pending::<()>()).await;
    }
    !t.alive()
}

/// Like `wait_for`, for what takes longer than its 15 s (10 MB of output
/// through the adapter).
async fn wait_long(t: &Tmux, what: &str, secs: u64, pred: impl Fn(&str) -> bool) -> String {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let s = t.screen();
        if pred(&s) {
            return s;
        }
        if tokio::time::Instant::now() > deadline {
            panic!("timed out waiting for {what}; the screen:\n{s}");
        }
        let _ =
            tokio::time::timeout(Duration::from_millis(100), std::future::pending::<()>()).await;
    }
}

/// The screen's words in order, borders and line breaks taken out, for
/// text that wraps (a wrap at a space drops the space).
fn joined(s: &str) -> String {
    s.replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

const STEPS: &str = "\
a = 1
b = 2
c = 3
d = 4
print('done', a + b + c + d)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn n_n_steps_twice_and_a_refused_step_reads_cannot_step() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("steps.py", STEPS)]);
    let t = Tmux::start("queue", ws.path(), &["--", "steps.py"]);
    t.wait_for("the entry stop", |s| {
        s.contains("stopped: entry") && current_line(s) == Some(1)
    })
    .await;
    // Both keys in one write: the second lands while the first step runs.
    t.keys(&["n", "n"]);
    t.wait_for("two steps", |s| {
        current_line(s) == Some(3) && s.contains("b = 2")
    })
    .await;
    t.keys(&["c"]);
    t.wait_for("the exit", |s| s.contains("exited with code 0"))
        .await;
    t.keys(&["n"]);
    let s = t
        .wait_for("the refusal", |s| s.contains("cannot step:"))
        .await;
    assert!(!s.contains("cannot stepped"), "{s}");
    t.keys(&["q", "y"]);
    assert!(ended(&t).await, "q quits at once once the program ended");
}

const LOOP: &str = "\
import time
n = 0
while True:
    n += 1
    time.sleep(0.01)
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_pauses_the_program_and_q_asks_before_ending_it() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("spin.py", LOOP)]);
    let t = Tmux::start("ctrlc", ws.path(), &["--", "spin.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["c"]);
    t.wait_for("running", |s| s.contains("running")).await;
    t.keys(&["C-c"]);
    t.wait_for("the pause", |s| s.contains("stopped: pause"))
        .await;
    assert!(t.alive(), "Ctrl-C does not quit");
    // q asks; any other key stays.
    t.keys(&["q"]);
    t.wait_for("the question", |s| {
        joined(s).contains("the program is still alive: q or y quits")
    })
    .await;
    t.keys(&["x"]);
    t.wait_for("the question gone", |s| !s.contains("still alive"))
        .await;
    assert!(t.alive(), "another key stays");
    t.keys(&["q", "y"]);
    assert!(ended(&t).await, "q then y quits");

    // The setting turns the question off.
    let config = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(config.path().join("pairdbg")).unwrap();
    std::fs::write(
        config.path().join("pairdbg/config.toml"),
        "confirm_quit = false\n",
    )
    .unwrap();
    let t = Tmux::run(
        "noconfirm",
        ws.path(),
        &format!(
            "env XDG_CONFIG_HOME={} {} -- spin.py",
            config.path().display(),
            env!("CARGO_BIN_EXE_pairdbg")
        ),
    );
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["q", "y"]);
    assert!(ended(&t).await, "confirm_quit = false quits at once");
}

const MANY: &str = "\
for i in range(1, 20001):
    print(f'line {i:05}')
stop = 1
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_output_pane_pages_by_its_own_height_and_g_reaches_line_one_of_20000() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("many.py", MANY)]);
    let t = Tmux::start(
        "output",
        ws.path(),
        &["--break", "many.py:3", "--", "many.py"],
    );
    t.wait_for("the stop after the output", |s| {
        s.contains("stopped: breakpoint") && s.contains("line 20000")
    })
    .await;
    // Source → stack → variables → watch → breakpoints → output.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "g"]);
    // At 120×36 the output pane shows 8 lines.
    let s = t
        .wait_for("the first lines", |s| {
            s.contains("line 00001") && s.contains("line 00008")
        })
        .await;
    assert!(!s.contains("line 00009"), "8 rows: {s}");
    t.keys(&["PgDn"]);
    let s = t
        .wait_for("the next page", |s| {
            s.contains("line 00009") && s.contains("line 00016")
        })
        .await;
    assert!(
        !s.contains("line 00008") && !s.contains("line 00017"),
        "a page is the pane's own height: {s}"
    );
    t.keys(&["PgUp"]);
    t.wait_for("back a page", |s| {
        s.contains("line 00001") && !s.contains("line 00009")
    })
    .await;
    t.keys(&["G"]);
    t.wait_for("the end", |s| {
        s.contains("line 20000") && s.contains("line 19993") && !s.contains("line 00001")
    })
    .await;
    t.keys(&["q", "y"]);
}

const FLOOD: &str = "\
chunk = 'x' * 999
for i in range(11000):
    print(f'{i:05} {chunk}')
stop = 1
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_output_pane_marks_what_the_full_buffer_dropped() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("flood.py", FLOOD)]);
    let t = Tmux::start(
        "flood",
        ws.path(),
        &["--break", "flood.py:4", "--", "flood.py"],
    );
    wait_long(&t, "the stop after 11 MB", 120, |s| {
        s.contains("stopped: breakpoint") && s.contains("10999 xxx")
    })
    .await;
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Tab", "g"]);
    let s = t
        .wait_for("the drop mark", |s| s.contains("of earlier output dropped"))
        .await;
    assert!(
        !s.contains("00000 xxx"),
        "the first lines were dropped: {s}"
    );
    t.keys(&["q", "y"]);
}

const HELLO: &str = "x = 1\ny = 2\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_scrolls_to_its_last_key_at_80x24() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("hello.py", HELLO)]);
    let t = Tmux::start("help", ws.path(), &["--", "hello.py"]);
    resize(&t, 80, 24);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["?"]);
    let s = t
        .wait_for("the help", |s| {
            s.contains("step over") && s.contains("more")
        })
        .await;
    assert!(!s.contains("quit"), "the last key is below: {s}");
    t.keys(&["G"]);
    t.wait_for("the end of the help", |s| {
        s.contains(" q ") && s.contains("quit") && !s.contains("step over")
    })
    .await;
    t.keys(&["k"]);
    t.wait_for("still open after scrolling up", |s| s.contains(" keys ("))
        .await;
    t.keys(&["Escape"]);
    t.wait_for("closed", |s| !s.contains(" keys (")).await;
    t.keys(&["q", "y"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_message_shows_whole_at_80_columns_and_messages_lists_it() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("hello.py", HELLO)]);
    let t = Tmux::start("message", ws.path(), &["--", "hello.py"]);
    resize(&t, 80, 24);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    let needle = "a-search-that-finds-nothing-and-makes-a-long-message-end-here";
    t.keys(&["/"]);
    t.keys(&["-l", needle]);
    t.keys(&["Enter"]);
    let whole = format!("\"{needle}\" is not in this file");
    t.wait_for("the whole message", |s| joined(s).contains(&whole))
        .await;
    // Any key clears it; :messages brings it back.
    t.keys(&["j"]);
    t.wait_for("the message cleared", |s| !joined(s).contains(&whole))
        .await;
    t.keys(&[":"]);
    t.keys(&["-l", "messages"]);
    t.keys(&["Enter"]);
    t.wait_for("the messages", |s| {
        s.contains(" messages ") && joined(s).contains(&whole)
    })
    .await;
    t.keys(&["Escape", "q", "y"]);
}

fn long_lines() -> String {
    let mut prog = String::from("x = 1\n");
    prog.push_str(&format!("label = 'start-{}-FARRIGHT'\n", "m".repeat(150)));
    for i in 3..=30 {
        prog.push_str(&format!("v{i} = {i}\n"));
    }
    prog
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_60x15_terminal_keeps_the_source_and_long_lines_scroll_sideways() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("wide.py", &long_lines())]);
    let t = Tmux::start("small", ws.path(), &["--", "wide.py"]);
    resize(&t, 60, 15);
    let s = t
        .wait_for("the entry stop", |s| {
            current_line(s) == Some(1) && s.contains("v7 = 7")
        })
        .await;
    assert!(
        s.contains("mmm…"),
        "a line cut at the edge ends with an ellipsis: {s}"
    );
    assert!(!s.contains("FARRIGHT"), "{s}");
    t.keys(&["Right"; 20]);
    t.wait_for("the line's end", |s| s.contains("-FARRIGHT'"))
        .await;
    t.keys(&["Left"; 20]);
    t.wait_for("the start again", |s| s.contains("label = 'start-"))
        .await;
    t.keys(&["q", "y"]);
}

const PROMPT: &str = "total = 99\nz = 1\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_prompt_edits_like_a_shell() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("p.py", PROMPT)]);
    let t = Tmux::start("editing", ws.path(), &["--", "p.py"]);
    t.wait_for("the entry stop", |s| s.contains("stopped: entry"))
        .await;
    t.keys(&["n"]);
    // The source line itself reads `total = 99`: the step's stop is what
    // counts.
    t.wait_for("total set", |s| {
        s.contains("stopped: step") && s.contains("  total = 99")
    })
    .await;
    // Ctrl-W drops a word, Ctrl-A and Ctrl-E go to the ends.
    t.keys(&["e"]);
    t.keys(&["-l", "total junk"]);
    t.keys(&["C-w", "C-a"]);
    t.keys(&["-l", "1+"]);
    t.keys(&["C-e"]);
    t.keys(&["-l", "+1"]);
    t.wait_for("the edited line", |s| s.contains("› 1+total +1▏"))
        .await;
    t.keys(&["Enter"]);
    t.wait_for("the answer", |s| s.contains("101  (int)")).await;
    // Ctrl-U empties the line; Left and Home move inside it.
    t.keys(&["e"]);
    t.keys(&["-l", "garbage"]);
    t.keys(&["C-u"]);
    t.keys(&["-l", "5*"]);
    t.keys(&["Home"]);
    t.keys(&["-l", "2*"]);
    t.keys(&["End", "Left"]);
    t.keys(&["-l", "3"]);
    t.wait_for("the moved cursor", |s| s.contains("› 2*53▏*"))
        .await;
    t.keys(&["End"]);
    t.keys(&["-l", "1"]);
    t.keys(&["Enter"]);
    t.wait_for("the second answer", |s| s.contains("106  (int)"))
        .await;
    // Up recalls the last line.
    t.keys(&["e", "Up"]);
    t.wait_for("the recalled line", |s| s.contains("› 2*53*1▏"))
        .await;
    t.keys(&["Escape", "q", "y"]);
}

fn sixty_lines() -> String {
    (1..=60).map(|i| format!("v{i} = {i}\n")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_two_g_colon_ten_and_enter_on_a_breakpoint_go_to_the_line() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("lines.py", &sixty_lines())]);
    let t = Tmux::start(
        "goto",
        ws.path(),
        &["--break", "lines.py:55", "--", "lines.py"],
    );
    t.wait_for("the stop", |s| current_line(s) == Some(55))
        .await;
    t.keys(&["g"]);
    // Source rows read `  42 v42 = 42`; the variables pane's do not.
    let row = |n: u32| format!("{n} v{n} = {n}");
    t.wait_for("the top", |s| s.contains(&row(1))).await;
    t.keys(&["4", "2", "G"]);
    let s = t
        .wait_for("line 42", |s| s.contains(&row(42)) && !s.contains(&row(1)))
        .await;
    assert!(!s.contains(&row(60)), "42G is not G: {s}");
    t.keys(&[":"]);
    t.keys(&["-l", "10"]);
    t.wait_for("the palette offers it", |s| s.contains("go to line 10"))
        .await;
    t.keys(&["Enter"]);
    t.wait_for("line 10", |s| s.contains(&row(10)) && !s.contains(&row(42)))
        .await;
    // Source → stack → variables → watch → breakpoints; Enter shows line 55.
    t.keys(&["Tab", "Tab", "Tab", "Tab", "Enter"]);
    t.wait_for("the breakpoint's line", |s| {
        s.contains(&row(55)) && !s.contains(&row(10))
    })
    .await;
    t.keys(&["q", "y"]);
}

const BIG: &str = "\
big = list(range(1000000))
stop = 1
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_on_999801_more_reads_the_next_page_and_brackets_jump_to_500000() {
    if !debugpy_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("big.py", BIG)]);
    let t = Tmux::start("bigpy", ws.path(), &["--break", "big.py:2", "--", "big.py"]);
    t.wait_for("the stop", |s| s.contains("▸ big")).await;
    t.keys(&["Tab", "Tab", "Enter"]);
    t.wait_for("the first page", |s| s.contains("▾ big")).await;
    // The last row is the Globals scope; the gap row is just above it.
    t.keys(&["G", "k"]);
    // debugpy counts len() among the children.
    t.wait_for("the gap row", |s| s.contains("… 999801 more"))
        .await;
    // The selection stays where the gap was: on the first item read.
    t.keys(&["Enter"]);
    t.wait_for("the next page", |s| s.contains("000200 = 200"))
        .await;
    t.keys(&["G"]);
    t.wait_for("the gap after it", |s| s.contains("… 999601 more"))
        .await;
    t.keys(&["k", "k"]);
    t.wait_for("the last item read", |s| s.contains("000399 = 399"))
        .await;
    t.keys(&["["]);
    t.keys(&["-l", "[500000]"]);
    t.keys(&["Enter"]);
    t.wait_for("the jump", |s| {
        s.contains("… 500000 before") && s.contains("500000 = 500000")
    })
    .await;
    t.keys(&["q", "y"]);
}

const BIG_C: &str = "\
int main(void) {
    int big[5000];
    for (int i = 0; i < 5000; i++) big[i] = i;
    int stop = 1;
    return stop - big[0];
}
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_array_of_5000_reads_on_and_jumps_to_2500() {
    if !common::native::lldb_available() || !Tmux::available() {
        return;
    }
    let ws = workspace(&[("big.c", BIG_C)]);
    common::native::build_c(&ws.path().join("big.c"), &ws.path().join("big"));
    let t = Tmux::start("bigc", ws.path(), &["--break", "big.c:5", "--", "big"]);
    t.wait_for("the stop", |s| {
        s.contains("stopped: breakpoint") && s.contains("▸ big")
    })
    .await;
    t.keys(&["Tab", "Tab"]);
    // big is the first local.
    t.keys(&["Enter"]);
    t.wait_for("the first page", |s| s.contains("▾ big")).await;
    t.keys(&["G"]);
    t.wait_for("the gap row", |s| s.contains("… 4800 more"))
        .await;
    // The gap row is above `stop`, the last local, and the Globals and
    // Registers scopes.
    t.keys(&["k", "k", "k", "Enter"]);
    t.wait_for("the next page", |s| s.contains("[200] = 200"))
        .await;
    t.keys(&["["]);
    t.keys(&["-l", "2500"]);
    t.keys(&["Enter"]);
    t.wait_for("the jump", |s| {
        s.contains("… 2500 before") && s.contains("[2500] = 2500")
    })
    .await;
    t.keys(&["q", "y"]);
}
