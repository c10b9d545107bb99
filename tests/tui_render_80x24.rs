//! The screen at 80×24 as a daily size: the source keeps at least half the
//! rows, the stack shows a whole Rust path, the status bar keeps the state
//! and the stop reason, and the agent's pane takes room only once an agent
//! has connected (until then the status bar says how one joins).

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use pairdbg::session::output::Stream;
use pairdbg::session::types::*;
use pairdbg::tui::state::UiState;
use pairdbg::tui::theme::Theme;

use common::fixtures::{demo_source as source, frame, var};

const FIND: &str = "inv::store::Store::find";

fn stopped() -> Snapshot {
    let mut s = Snapshot::new(
        "s1".into(),
        "assets/demo/order.py".into(),
        PathBuf::from("/ws"),
    );
    s.state = RunState::Stopped;
    s.epoch = 4;
    s.stop_seq = 1;
    s.stop = Some(StopInfo {
        reason: "breakpoint".into(),
        description: None,
        thread_id: 1,
        frames: vec![
            frame(1, FIND, 44),
            frame(2, "inv::main", 56),
            frame(3, "std::rt::lang_start", 61),
        ],
        total_frames: 3,
        locals: vec![
            var("subtotal", "float", "119.94", 0),
            var("tax_rate", "float", "0.08", 0),
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
    let mut ui = UiState {
        file: Some(PathBuf::from("/ws/assets/demo/order.py")),
        cursor: 44,
        scroll: 38,
        followed_stop: 1,
        endpoint: Some("http://127.0.0.1:7777/mcp".into()),
        ..Default::default()
    };
    ui.push_output(Stream::Stdout, "loading stock\n");
    ui.push_output(Stream::Stderr, "warning: shelf 3 is empty\n");
    ui
}

fn screen(ui: &UiState) -> Vec<String> {
    let file = source();
    let b = common::fixtures::render_screen(
        &stopped(),
        ui,
        Some(&file),
        None,
        &Theme::default(),
        (80, 24),
    );
    b.to_string()
        .lines()
        .map(|l| l.trim_matches('"').to_string())
        .collect()
}

/// Rows inside the source pane: from its top border to its bottom one.
fn source_rows(rows: &[String]) -> usize {
    assert!(rows[0].starts_with("╭ assets/demo/order.py"), "{rows:#?}");
    rows.iter()
        .position(|r| r.starts_with("╰"))
        .expect("its bottom")
        - 1
}

#[test]
fn at_80x24_the_source_keeps_half_the_rows_and_the_agent_pane_waits_for_an_agent() {
    let before = screen(&ui());
    let text = before.join("\n");
    assert!(source_rows(&before) >= 12, "{text}");
    assert!(
        before.iter().any(|r| r.contains(&format!("▶ {FIND}"))),
        "the whole function in the stack: {text}"
    );
    let status = before.last().expect("the status bar");
    assert!(status.starts_with(" stopped: breakpoint "), "{text}");
    assert!(
        status.contains("no agent yet: `pairdbg mcp`"),
        "the status bar stands for the agent's pane: {text}"
    );
    assert!(!text.contains("╭ agent"), "{text}");
    assert!(text.contains("▌warning: shelf 3"), "{text}");
    insta::assert_snapshot!("before_an_agent", text);

    let mut joined = ui();
    joined.agent_joined = true;
    joined.activity.push(pairdbg::session::Activity {
        tool: "debug_step".into(),
        args: "kind=over".into(),
        summary: "stopped at order.py:45".into(),
        is_error: false,
        millis: 12,
        epoch: 5,
    });
    let after = screen(&joined);
    let text = after.join("\n");
    assert!(source_rows(&after) >= 12, "{text}");
    assert!(text.contains("╭ agent"), "{text}");
    assert!(text.contains("step kind=over"), "{text}");
    assert!(
        after.iter().any(|r| r.contains(&format!("▶ {FIND}"))),
        "{text}"
    );
    let status = after.last().expect("the status bar");
    assert!(status.starts_with(" stopped: breakpoint "), "{text}");
    assert!(!status.contains("no agent yet"), "{text}");
    insta::assert_snapshot!("after_an_agent_joined", text);
}

#[test]
fn a_long_stop_reason_keeps_its_place_and_the_rest_gives_way() {
    let mut s = stopped();
    if let Some(stop) = s.stop.as_mut() {
        stop.reason = "exception".into();
        stop.exception = Some(ExceptionDetails {
            type_name: "KeyError".into(),
            message: "'widget-with-a-rather-long-stock-keeping-unit-name'".into(),
            raised_at: None,
            qualified_type: None,
            first_chance: None,
            break_mode: None,
        });
    }
    let file = source();
    let b =
        common::fixtures::render_screen(&s, &ui(), Some(&file), None, &Theme::default(), (80, 24));
    let text = b.to_string();
    let status = text
        .lines()
        .last()
        .expect("the status bar")
        .trim_matches('"');
    assert_eq!(
        status.trim_end(),
        " stopped: KeyError: 'widget-with-a-rather-long-stock-keeping-unit-name'",
        "{text}"
    );
}
