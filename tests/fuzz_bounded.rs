//! Every fuzz target over its corpus and a bounded number of mutations:
//! no panic (on any thread), no input slower than the hang limit. A
//! failing input is written out (its path is in the failure) so that it
//! can join fuzz/corpus/<target>/ once fixed.
//!
//! `scripts/fuzz` runs the same targets longer, in release:
//! PAIRDBG_FUZZ_SECONDS gives each target that many seconds (times its
//! weight over 100), PAIRDBG_FUZZ_INPUTS a count of inputs per weight of
//! 100, PAIRDBG_FUZZ_SEED the mutations' seed, PAIRDBG_FUZZ_ONLY one target.

mod fuzz;

use std::time::Duration;

use fuzz::runner::{self, Budget};

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// One input through one target, timed: for a failure written out.
fn replay(target: &str, file: &str) {
    let input = std::fs::read(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let t = fuzz::targets()
        .into_iter()
        .find(|t| t.name == target)
        .unwrap_or_else(|| panic!("no fuzz target {target}"));
    let started = std::time::Instant::now();
    (t.run)(&input);
    println!("fuzz replay {target} {file}: {:?}", started.elapsed());
}

#[test]
fn every_target_survives_its_corpus_and_mutations() {
    // The fuzzed sessions write journals: into a directory of their own,
    // not the user's.
    let state = tempfile::tempdir().expect("a state directory");
    // SAFETY: set before this test starts a thread, in a binary with no
    // other test.
    unsafe { std::env::set_var("XDG_STATE_HOME", state.path()) };
    let per_100 = env_u64("PAIRDBG_FUZZ_INPUTS").unwrap_or(2_000);
    let seconds = env_u64("PAIRDBG_FUZZ_SECONDS");
    let seed = env_u64("PAIRDBG_FUZZ_SEED").unwrap_or(0x5eed);
    let only = std::env::var("PAIRDBG_FUZZ_ONLY").ok();
    if let (Some(target), Ok(file)) = (&only, std::env::var("PAIRDBG_FUZZ_REPLAY")) {
        return replay(target, &file);
    }
    let mut problems = vec![];
    let mut total = 0;
    for target in fuzz::targets() {
        if only.as_deref().is_some_and(|o| o != target.name) {
            continue;
        }
        let budget = Budget {
            inputs: (per_100 * target.weight / 100).max(20),
            time: seconds
                .map(|s| Duration::from_secs_f64(s as f64 * target.weight.max(10) as f64 / 100.0)),
            seed,
        };
        let started = std::time::Instant::now();
        let report = runner::run(&target, &budget);
        total += report.inputs;
        println!(
            "fuzz {:<18} inputs {:>10}  panics {}  hangs {}  slowest {:?}  in {:.1?}  peak RSS {} KiB",
            target.name,
            report.inputs,
            report.failures.len(),
            report.hangs.len(),
            report.slowest,
            started.elapsed(),
            runner::peak_rss_kib().unwrap_or(0),
        );
        for f in report.failures.iter().chain(&report.hangs) {
            problems.push(format!("{}: {f}", target.name));
        }
    }
    println!("fuzz total inputs {total}");
    assert!(
        problems.is_empty(),
        "fuzzing found:\n{}",
        problems.join("\n")
    );
}
