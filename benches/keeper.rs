//! What the process keeper costs, for docs/benchmarks.md: launch → first
//! stop with the adapter started through `pairdbg __keeper` and directly,
//! alternating in one run, and a bare `echo` both ways.
//! Run with `cargo bench --bench keeper`.

mod common;
#[path = "common/raw.rs"]
#[allow(dead_code)]
mod raw;

use std::path::PathBuf;
use std::time::Instant;

use pairdbg::adapters::{self, LaunchSpec};
use pairdbg::dap::keeper;

use common::{median, root};
use raw::{Demo, RawSession, ms};

const ROUNDS: usize = 12;
const SPAWNS: usize = 60;

fn pairdbg() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_pairdbg"))
}

/// Medians through the keeper and direct, and the median of each round's
/// difference (the machine's load drifts over seconds; a round's two runs
/// see about the same).
struct Figures {
    kept: Vec<f64>,
    direct: Vec<f64>,
}

impl Figures {
    fn new() -> Figures {
        Figures {
            kept: vec![],
            direct: vec![],
        }
    }

    fn push(&mut self, through_keeper: bool, t: f64) {
        if through_keeper {
            self.kept.push(t)
        } else {
            self.direct.push(t)
        }
    }

    fn row(self, what: &str) {
        let n = self.kept.len();
        let diffs = self.kept.iter().zip(&self.direct).map(|(k, d)| k - d);
        let diff = median(diffs.collect());
        println!(
            "| {what} | {:.1} ms | {:.1} ms | {diff:+.1} ms | {n} |",
            median(self.kept),
            median(self.direct)
        );
    }
}

/// Launch → first stop's stack, through the keeper and without, the order
/// alternating each round so that warm caches favour neither.
async fn startups(demo: &Demo) -> Figures {
    let mut f = Figures::new();
    for round in 0..ROUNDS {
        for through_keeper in [round % 2 == 0, round % 2 == 1] {
            keeper::set_exe(through_keeper.then(pairdbg));
            let s = RawSession::start(demo, true).await;
            let t = s.startup_ms;
            s.end().await;
            f.push(through_keeper, t);
        }
    }
    keeper::set_exe(None);
    f
}

/// A command that only prints a line: spawn → that line read (the start-up
/// an adapter sees) and spawn → exit (with the keeper's look for leftovers).
fn bare_spawns() -> (Figures, Figures) {
    use std::io::BufRead;
    let (mut first_line, mut exit) = (Figures::new(), Figures::new());
    for round in 0..SPAWNS {
        for through_keeper in [round % 2 == 0, round % 2 == 1] {
            let t = Instant::now();
            let mut cmd = if through_keeper {
                let mut c = std::process::Command::new(pairdbg());
                c.args([keeper::SUBCOMMAND, "--", "echo", "up"]);
                c
            } else {
                let mut c = std::process::Command::new("echo");
                c.arg("up");
                c
            };
            let mut child = cmd
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("spawn");
            let mut line = String::new();
            std::io::BufReader::new(child.stdout.take().expect("stdout"))
                .read_line(&mut line)
                .expect("read");
            assert_eq!(line, "up\n");
            first_line.push(through_keeper, ms(t.elapsed()));
            assert!(child.wait().expect("wait").success());
            exit.push(through_keeper, ms(t.elapsed()));
        }
    }
    (first_line, exit)
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    println!("| what | through the keeper | direct | round's difference (median) | n |");
    println!("|---|---|---|---|---|");
    let (first_line, exit) = bare_spawns();
    first_line.row("spawn → first line of `echo`");
    exit.row("spawn → exit of `echo`");

    let python = adapters::for_language("python").expect("python");
    python
        .probe(&LaunchSpec::for_workspace(&root()))
        .await
        .expect("debugpy installed (pairdbg adapters install python)");
    startups(&Demo::python(python))
        .await
        .row("debugpy launch → first stop");

    let rust = adapters::for_language("rust").expect("rust");
    rust.probe(&LaunchSpec::for_workspace(&root()))
        .await
        .expect("lldb-dap installed (pairdbg adapters install rust)");
    let ws = tempfile::tempdir().expect("tempdir");
    startups(&Demo::rust(rust, ws.path()))
        .await
        .row("lldb-dap launch → first stop (Rust demo)");
}
