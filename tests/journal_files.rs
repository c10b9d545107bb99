//! The journal's files without an adapter: records in order, the cap on a
//! journal and its rotation, how many journals are kept, and the card.

use std::sync::Arc;

use pairdbg::session::journal::{self, Journal, Record};
use pairdbg::session::types::{Note, Origin, Snapshot};

fn snapshot_with_notes(notes: usize) -> Snapshot {
    let mut s = Snapshot::new("s1".into(), "prog.py".into(), "/ws".into());
    for i in 0..notes {
        s.notes.push(Note {
            origin: Origin::Agent,
            text: format!("note {i} {}", "x".repeat(200)),
            epoch: i as u64,
        });
    }
    s
}

/// Starts a journal in `dir`, publishes `snaps`, and waits until written.
fn write(
    dir: &std::path::Path,
    part_bytes: u64,
    keep: usize,
    snaps: Vec<Snapshot>,
) -> std::path::PathBuf {
    let launched = journal::Launched {
        session: "s1".into(),
        program: "prog.py".into(),
        args: vec![],
        workspace: "/ws".into(),
        taint: Default::default(),
    };
    let j = Journal::start_in(dir, launched, part_bytes, keep).expect("journal");
    for s in snaps {
        j.published(Arc::new(s));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    j.after_written(Box::new(move || {
        let _ = tx.send(());
    }));
    rx.recv_timeout(std::time::Duration::from_secs(10))
        .expect("written");
    j.path().to_path_buf()
}

#[test]
fn a_full_journal_rotates_and_keeps_its_newest_records() {
    let dir = tempfile::tempdir().expect("dir");
    let snaps = (1..=60).map(snapshot_with_notes).collect();
    let path = write(dir.path(), 4096, 10, snaps);
    let size = std::fs::metadata(&path).expect("journal").len();
    assert!(size <= 4096, "a part stays under its cap: {size}");
    let prev = path.with_extension("prev.jsonl");
    assert!(prev.exists(), "the full part was kept as the previous one");
    assert!(std::fs::metadata(&prev).expect("prev").len() <= 4096);
    let records = journal::read(&path).expect("read");
    let notes: Vec<&str> = records
        .iter()
        .filter_map(|r| match r {
            Record::Note { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        notes.last().is_some_and(|n| n.starts_with("note 59 ")),
        "{notes:?}"
    );
    assert!(
        !notes.iter().any(|n| n.starts_with("note 0 ")),
        "the oldest went"
    );
    assert!(
        matches!(records.first(), Some(Record::Start { .. })),
        "every part starts with the header"
    );
    assert!(records.iter().any(|r| matches!(r, Record::Rotated { .. })));
    let card = journal::render_card(&records);
    assert!(card.contains("The journal reached its cap"), "{card}");
    // No third part: the one before the previous is gone.
    let parts = std::fs::read_dir(dir.path()).expect("dir").count();
    assert_eq!(parts, 2);
}

#[test]
fn only_the_newest_journals_are_kept() {
    let dir = tempfile::tempdir().expect("dir");
    let mut made = vec![];
    for _ in 0..5 {
        made.push(write(dir.path(), 1 << 20, 3, vec![snapshot_with_notes(1)]));
    }
    let left = journal::list(dir.path());
    assert_eq!(
        left,
        made[2..].to_vec(),
        "the three newest remain, oldest first"
    );
}

#[test]
fn export_finds_the_workspaces_last_journal_or_the_one_named() {
    let dir = tempfile::tempdir().expect("dir");
    let a = write(dir.path(), 1 << 20, 10, vec![snapshot_with_notes(1)]);
    let b = write(dir.path(), 1 << 20, 10, vec![snapshot_with_notes(2)]);
    assert_eq!(
        journal::find(dir.path(), "/ws".as_ref(), None),
        Ok(b.clone())
    );
    let id = a.file_stem().and_then(|s| s.to_str()).expect("stem");
    assert_eq!(journal::find(dir.path(), "/ws".as_ref(), Some(id)), Ok(a));
    let e = journal::find(dir.path(), "/elsewhere".as_ref(), None).expect_err("none there");
    assert!(e.contains("no journal for /elsewhere"), "{e}");
    let e = journal::find(dir.path(), "/ws".as_ref(), Some("s9")).expect_err("no s9");
    assert!(e.starts_with("session: no journal of session s9"), "{e}");
}

#[test]
fn export_without_a_journal_says_where_it_looked() {
    let ws = tempfile::tempdir().expect("ws");
    let state = tempfile::tempdir().expect("state");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_pairdbg"))
            .args(args)
            .current_dir(ws.path())
            .env("XDG_STATE_HOME", state.path())
            .output()
            .expect("pairdbg")
    };
    let out = run(&["journal", "export"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("no journal for") && err.contains("journals"),
        "{err}"
    );
    let out = run(&["journal", "export", "--session", "s9"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("session: no journal of session s9"), "{err}");
}

#[test]
fn a_new_journal_sorts_after_the_newest_whatever_the_clock_says() {
    let dir = tempfile::tempdir().expect("dir");
    // A journal whose name is a minute ahead of the clock (a clock set
    // back, or names bumped past one millisecond).
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let ahead = dir.path().join(format!("{:013}-1-s0.jsonl", now + 60_000));
    std::fs::write(&ahead, "").unwrap();
    let new = write(dir.path(), 1 << 20, 3, vec![snapshot_with_notes(1)]);
    assert_eq!(journal::list(dir.path()), vec![ahead, new]);
}

#[test]
fn the_programs_output_is_journaled_up_to_its_cap() {
    let dir = tempfile::tempdir().expect("dir");
    let launched = journal::Launched {
        session: "s1".into(),
        program: "prog.py".into(),
        args: vec![],
        workspace: "/ws".into(),
        taint: Default::default(),
    };
    let j = Journal::start_in(dir.path(), launched, 1 << 24, 10).expect("journal");
    let line = format!("{}\n", "o".repeat(1023));
    let lines = journal::OUTPUT_BYTES_KEPT as usize / line.len() + 10;
    for _ in 0..lines {
        j.output("stdout", &line);
    }
    j.output("stderr", "after the cap\n");
    let (tx, rx) = std::sync::mpsc::channel();
    j.after_written(Box::new(move || {
        let _ = tx.send(());
    }));
    rx.recv_timeout(std::time::Duration::from_secs(10))
        .expect("written");
    let records = journal::read(j.path()).expect("read");
    let kept: usize = records
        .iter()
        .filter_map(|r| match r {
            Record::Output { text, .. } => Some(text.len()),
            _ => None,
        })
        .sum();
    assert!(kept as u64 <= journal::OUTPUT_BYTES_KEPT, "{kept}");
    assert!(kept as u64 > journal::OUTPUT_BYTES_KEPT - 1024, "{kept}");
    let capped: Vec<_> = records
        .iter()
        .filter(|r| matches!(r, Record::OutputCapped { .. }))
        .collect();
    assert_eq!(capped.len(), 1, "said once");
    assert!(
        !records
            .iter()
            .any(|r| matches!(r, Record::Output { text, .. } if text.contains("after the cap"))),
        "nothing past the cap"
    );
}
