//! The person's side of the figures: the time from a step key to the frame
//! that shows the new stop, against the raw DAP floor in the same run; and
//! the frame time and pairdbg's memory with a big program (100,000 output
//! lines, a 20,000-line source file, a 1,000,000-item list expanded) at
//! 120×40. Run with `cargo bench --bench tui` (needs tmux and debugpy);
//! `-- step` or `-- big` runs one of the two.

mod common;
// Epochs and the agent's clock serve the pair benchmark only.
#[allow(dead_code)]
#[path = "common/frames.rs"]
mod frames;
// The Rust demo in it serves the latency benchmark only.
#[allow(dead_code)]
#[path = "common/raw.rs"]
mod raw;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use pairdbg::adapters::{self, LaunchSpec};

use common::{median, root};
use frames::{Drawn, parse_drawn, parse_key};
use raw::{BREAK_LINE, DEMO, Demo, RawSession};

const ROUNDS: usize = 4;
/// Steps that stay inside process_order's loop.
const STEPS: usize = 8;

/// pairdbg's TUI in a tmux pane of its own, logging keys and frames.
struct Tui {
    socket: String,
    log: PathBuf,
    pid: u32,
}

impl Tui {
    fn start(name: &str, cwd: &Path, args: &str, (w, h): (u16, u16)) -> Tui {
        let log = std::env::temp_dir().join(format!(
            "pairdbg-tui-bench-{name}-{}.log",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&log);
        let socket = format!("pairdbg-tui-bench-{name}-{}", std::process::id());
        let cmd = format!(
            "PAIRDBG_LOG={} PAIRDBG_LOG_LEVEL=pairdbg::tui=debug exec {} {args}",
            log.display(),
            env!("CARGO_BIN_EXE_pairdbg")
        );
        let ok = Command::new("tmux")
            .args(["-L", &socket, "new-session", "-d", "-x"])
            .arg(w.to_string())
            .arg("-y")
            .arg(h.to_string())
            .arg("-c")
            .arg(cwd)
            .args(["--", &cmd])
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "tmux is needed for this benchmark");
        let pid = Command::new("tmux")
            .args(["-L", &socket, "display", "-p", "#{pane_pid}"])
            .output()
            .ok()
            .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
            .expect("the pane's process");
        Tui { socket, log, pid }
    }

    fn key(&self, key: &str) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "send-keys", key])
            .status();
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn screen(&self) -> String {
        Command::new("tmux")
            .args(["-L", &self.socket, "capture-pane", "-p"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default()
    }

    /// Polls the log (the TUI writes it; there is no event to wait on from
    /// another process) until `found` gives a value.
    async fn wait<T>(&self, what: &str, secs: u64, found: impl Fn(&[String]) -> Option<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(t) = found(&self.lines()) {
                return t;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: not seen in {secs} s; the screen:\n{}",
                self.screen()
            );
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    async fn wait_screen(&self, text: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while !self.screen().contains(text) {
            assert!(
                Instant::now() < deadline,
                "{text:?} never showed; the screen:\n{}",
                self.screen()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Presses `key` and returns the first frame drawn after it.
    async fn press(&self, key: &str) -> Drawn {
        let before = self.lines().len();
        self.key(key);
        self.wait(&format!("a frame after {key}"), 30, |lines| {
            let mut after = lines.iter().skip(before);
            after.by_ref().find(|l| parse_key(l).is_some())?;
            after.find_map(|l| parse_drawn(l))
        })
        .await
    }

    /// pairdbg's resident and peak memory, in MiB.
    fn memory_mib(&self) -> (f64, f64) {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid)).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kib| kib.parse::<f64>().ok())
                .map(|kib| kib / 1024.0)
                .unwrap_or(f64::NAN)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .status();
        let _ = std::fs::remove_file(&self.log);
    }
}

fn last_stop(lines: &[String]) -> u64 {
    lines
        .iter()
        .filter_map(|l| parse_drawn(l))
        .map(|d| d.stop)
        .max()
        .unwrap_or(0)
}

/// Step key to the frame of the new stop, alternating with the raw floor.
async fn key_to_frame() {
    let python = adapters::for_language("python").expect("python");
    python
        .probe(&LaunchSpec::for_workspace(&root()))
        .await
        .expect("the Python adapter installed (pairdbg adapters install python)");
    let mut floor = vec![];
    let mut tui = vec![];
    let mut drawing = vec![];
    for round in 0..ROUNDS {
        let demo = Demo::python(python);
        let mut raw = RawSession::start(&demo, true).await;
        let t = Tui::start(
            &format!("step{round}"),
            &root(),
            &format!("--break {DEMO}:{BREAK_LINE} -- {DEMO}"),
            (120, 40),
        );
        let mut stop = t
            .wait("the first stop", 60, |l| {
                Some(last_stop(l)).filter(|s| *s > 0)
            })
            .await;
        for _ in 0..STEPS {
            // The floor with the reads the TUI's stop needs (`user`'s fields).
            floor.push(raw.step(demo.extra_reads).await.1);
            let before = t.lines().len();
            t.key("n");
            let (pressed, shown) = t
                .wait("the next stop drawn", 30, |lines| {
                    let after = &lines[before.min(lines.len())..];
                    let pressed = after.iter().find_map(|l| parse_key(l))?;
                    let shown = after
                        .iter()
                        .filter_map(|l| parse_drawn(l))
                        .find(|d| d.stop > stop)?;
                    Some((pressed, shown))
                })
                .await;
            stop = shown.stop;
            tui.push((shown.at - pressed) * 1000.0);
            drawing.push(shown.micros as f64 / 1000.0);
        }
        raw.end().await;
    }
    let (f, k, d) = (median(floor.clone()), median(tui.clone()), median(drawing));
    println!(
        "| raw DAP floor with the stop's reads (next, stopped, stackTrace, scopes, variables, `user`) | {f:.2} ms | {} | — |",
        floor.len()
    );
    println!(
        "| step key → the frame showing the new stop | {k:.2} ms | {} | — |",
        tui.len()
    );
    println!(
        "| pairdbg's own time (key → frame minus floor) | {:.2} ms | — | ≤ 20 ms |",
        k - f
    );
    println!(
        "| drawing that frame | {d:.2} ms | {} | ≤ 16 ms |",
        tui.len()
    );
}

/// A 20,000-line program that prints 100,000 lines and stops beside a
/// 1,000,000-item list.
fn big_program(dir: &Path) -> (PathBuf, usize) {
    let mut src = String::from(
        "def emit():\n    for i in range(100_000):\n        print(\"output line\", i)\n\n\n\
         def main():\n    emit()\n    big = list(range(1_000_000))\n    total = 0\n\
         \x20   for n in big[:3]:\n        total += n\n    return total\n\n\n",
    );
    let break_line = 11;
    let mut n = 0;
    while src.lines().count() < 19_997 {
        src.push_str(&format!("def filler_{n}(x):\n    return x + {n}\n\n"));
        n += 1;
    }
    src.push_str("if __name__ == \"__main__\":\n    main()\n");
    let path = dir.join("big.py");
    std::fs::write(&path, src).expect("write big.py");
    (path, break_line)
}

/// Frames drawn while the person moves around the big program's stop.
async fn big_frames() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, line) = big_program(dir.path());
    let t = Tui::start(
        "big",
        dir.path(),
        &format!("--break big.py:{line} -- big.py"),
        (120, 40),
    );
    t.wait("the stop", 300, |l| Some(last_stop(l)).filter(|s| *s > 0))
        .await;
    t.wait_screen("output line 99999", 120).await;
    let mut frames = vec![];
    // The variables pane: open the list and walk and page through it.
    for _ in 0..2 {
        t.press("Tab").await;
    }
    frames.push(t.press("Enter").await);
    t.wait_screen("= 1", 30).await;
    for key in ["j"; 30].into_iter().chain(["PgDn"; 20]) {
        frames.push(t.press(key).await);
    }
    // The output pane: page back through the 100,000 lines.
    for _ in 0..3 {
        t.press("Tab").await;
    }
    for key in ["PgUp"; 30].into_iter().chain(["g", "G"]) {
        frames.push(t.press(key).await);
    }
    // The source pane: page down the 20,000 lines.
    for _ in 0..3 {
        t.press("Tab").await;
    }
    for key in ["PgDn"; 30].into_iter().chain(["G", "g"]) {
        frames.push(t.press(key).await);
    }
    let (rss, peak) = t.memory_mib();
    let ms: Vec<f64> = frames.iter().map(|d| d.micros as f64 / 1000.0).collect();
    let mut sorted = ms.clone();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let worst = sorted.last().copied().unwrap_or(f64::NAN);
    println!(
        "| frame at 120×40, 100,000 output lines, 20,000-line source, 1,000,000-item list open (median) | {:.2} ms | {} | ≤ 16 ms |",
        median(ms.clone()),
        ms.len()
    );
    println!(
        "| the same, slowest frame | {worst:.2} ms | {} | ≤ 16 ms |",
        ms.len()
    );
    println!(
        "| pairdbg's memory then: resident / peak | {rss:.0} / {peak:.0} MiB | 1 | < 200 MB |"
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    println!("| figure | median | samples | goal |");
    println!("|---|---|---|---|");
    // `-- step` or `-- big` runs one part.
    let only = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    if only.as_deref().is_none_or(|o| o == "step") {
        key_to_frame().await;
    }
    if only.as_deref().is_none_or(|o| o == "big") {
        big_frames().await;
    }
}
