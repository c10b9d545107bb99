//! Render snapshots of the views the panes work added: help at 80×24 (it
//! scrolls instead of being cut), a small terminal that keeps the source, a
//! big container's gap rows, a message too long for the status bar, and a
//! session's processes each on a row of the stack pane.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use pairdbg::session::types::*;
use pairdbg::tui::state::{Focus, UiState};
use pairdbg::tui::theme::Theme;

use common::fixtures::{demo_source as source, frame, var};

fn stopped() -> Snapshot {
    let mut s = Snapshot::new(
        "s1".into(),
        "assets/demo/order.py".into(),
        PathBuf::from("/ws"),
    );
    s.state = RunState::Stopped;
    s.epoch = 3;
    s.stop_seq = 1;
    let mut big = var("big", "list", "[0, 1, 2, ...]", 7);
    big.children = None;
    s.stop = Some(StopInfo {
        reason: "breakpoint".into(),
        description: None,
        thread_id: 1,
        frames: vec![frame(1, "process_order", 44)],
        total_frames: 1,
        locals: vec![
            big,
            var("label", "str", &format!("'{}'", "long ".repeat(30)), 0),
        ],
        locals_reference: 4,
        exception: None,
        thread_note: None,
        source: Some(Arc::new(source())),
        files: vec![Arc::new(source())],
        callers: vec![],
        hit: None,
        condition_error: None,
        process: None,
        child: None,
        connection: 0,
    });
    s
}

fn ui() -> UiState {
    UiState {
        file: Some(PathBuf::from("/ws/assets/demo/order.py")),
        cursor: 44,
        scroll: 38,
        followed_stop: 1,
        ..Default::default()
    }
}

fn screen(snap: &Snapshot, ui: &UiState, w: u16, h: u16) -> String {
    let file = source();
    common::fixtures::render_screen(snap, ui, Some(&file), None, &Theme::default(), (w, h))
        .to_string()
}

#[test]
fn help_at_80x24_scrolls() {
    let mut ui = ui();
    ui.show_help = true;
    let top = screen(&stopped(), &ui, 80, 24);
    assert!(top.contains("more "), "says more is below: {top}");
    insta::assert_snapshot!("help_80x24_top", top);
    ui.help_scroll = usize::MAX / 2;
    let end = screen(&stopped(), &ui, 80, 24);
    assert!(end.contains("quit"), "the last key shows: {end}");
    insta::assert_snapshot!("help_80x24_end", end);
}

#[test]
fn a_60x15_terminal_gives_the_source_most_rows() {
    let mut ui = ui();
    ui.focus = Focus::Variables;
    insta::assert_snapshot!(screen(&stopped(), &ui, 60, 15));
}

#[test]
fn a_big_container_shows_its_gaps() {
    let mut ui = ui();
    ui.focus = Focus::Variables;
    let page: Vec<Var> = (500000..500003)
        .map(|i| var(&format!("{i:06}"), "int", &i.to_string(), 0))
        .collect();
    ui.children.insert("big".into(), (page, 1_000_001));
    ui.pages.insert("big".into(), 500000);
    ui.selected_var = 5;
    insta::assert_snapshot!(screen(&stopped(), &ui, 120, 36));
}

#[test]
fn a_long_message_gets_its_own_lines_at_80_columns() {
    let mut ui = ui();
    ui.message = Some(format!(
        "cannot set a breakpoint: {}",
        "the adapter said something long about it ".repeat(3)
    ));
    insta::assert_snapshot!(screen(&stopped(), &ui, 80, 24));
}

#[test]
fn a_stop_in_a_worker_lists_each_process_on_its_own_row() {
    let mut snap = stopped();
    if let Some(stop) = snap.stop.as_mut() {
        stop.child = Some(2);
        stop.process = Some("Subprocess 4517".into());
    }
    let mut ui = ui();
    let row = |child: u32, process: &str, id: i64, name: &str| ThreadRow {
        child: Some(child),
        process: Some(process.into()),
        id,
        name: name.into(),
    };
    ui.threads = vec![
        row(0, "main (pid 4511)", 1, "MainThread"),
        row(1, "Subprocess 4516", 1, "MainThread"),
        row(2, "Subprocess 4517", 1, "MainThread"),
        row(2, "Subprocess 4517", 3, "pool-worker-long-name"),
    ];
    let s = screen(&snap, &ui, 120, 36);
    let line = |needle: &str| {
        s.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("no row for {needle}: {s}"))
            .to_string()
    };
    assert!(line("main (pid 4511): ").contains("1 MainThread"), "{s}");
    assert!(!line("Subprocess 4516: ").contains('▶'), "{s}");
    // The worker that stopped is marked, its shown thread bracketed, and
    // its row cut where the pane ends.
    let stopped = line("Subprocess 4517: ");
    assert!(stopped.contains("▶ Subprocess 4517: [1 MainThread]"), "{s}");
    assert!(stopped.contains('…'), "{s}");
    insta::assert_snapshot!(s);
}
