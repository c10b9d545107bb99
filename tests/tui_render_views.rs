//! Render snapshots of the views over a stop: values inline in the source,
//! the returned value and the other scopes in the variables tree, and the
//! traceback overlay.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use pairdbg::session::autopsy::{ExceptionContext, ExceptionSummary, InnerException};
use pairdbg::session::types::*;
use pairdbg::tui::panes::traceback::Traceback;
use pairdbg::tui::state::{Focus, UiState};
use pairdbg::tui::theme::Theme;

use common::fixtures::{demo_source as source, frame, var};

fn stopped(line: u64, locals: Vec<Var>) -> Snapshot {
    let mut s = Snapshot::new(
        "s1".into(),
        "assets/demo/order.py".into(),
        PathBuf::from("/ws"),
    );
    s.state = RunState::Stopped;
    s.stop_seq = 2;
    s.stop = Some(StopInfo {
        reason: "step".into(),
        description: None,
        thread_id: 1,
        frames: vec![frame(2, "process_order", line), frame(3, "main", 56)],
        total_frames: 2,
        locals,
        locals_reference: 4,
        exception: None,
        source: Some(Arc::new(source())),
        files: vec![Arc::new(source())],
        callers: vec![],
        thread_note: None,
        hit: None,
        condition_error: None,
        process: None,
        child: None,
        connection: 0,
    });
    s
}

fn demo_locals() -> Vec<Var> {
    let mut user = var("user", "User", "<__main__.User object at 0x1>", 9);
    user.children = Some(vec![
        var("id", "int", "482", 0),
        var("tier", "str", "'gold'", 0),
    ]);
    vec![
        var("cart", "Cart", "Cart(items=[])", 5),
        var("subtotal", "float", "119.94", 0),
        var("tax_rate", "float", "0.08", 0),
        user,
    ]
}

fn ui_at(line: usize) -> UiState {
    UiState {
        file: Some(PathBuf::from("/ws/assets/demo/order.py")),
        cursor: line,
        scroll: line.saturating_sub(8).max(1),
        ..Default::default()
    }
}

fn screen(snap: &Snapshot, ui: &UiState, previous: Option<&[Var]>, w: u16, h: u16) -> String {
    let file = source();
    common::fixtures::render_screen(snap, ui, Some(&file), previous, &Theme::default(), (w, h))
        .to_string()
}

#[test]
fn values_inline_in_the_source() {
    let s = stopped(45, demo_locals());
    let previous = vec![var("subtotal", "float", "89.97", 0)];
    let shown = screen(&s, &ui_at(45), Some(&previous), 120, 30);
    assert!(
        shown.contains("subtotal = 0.0   subtotal = 119.94"),
        "{shown}"
    );
    insta::assert_snapshot!(shown);
}

#[test]
fn values_inline_are_off_when_toggled() {
    let s = stopped(45, demo_locals());
    let ui = UiState {
        inline_values: false,
        ..ui_at(45)
    };
    let shown = screen(&s, &ui, None, 120, 30);
    assert!(shown.contains("subtotal = 0.0  "), "{shown}");
    assert!(!shown.contains("subtotal = 0.0   subtotal"), "{shown}");
}

#[test]
fn the_returned_value_first_and_the_other_scopes_folded() {
    let mut locals = demo_locals();
    locals.push(var("(return) calculate_discount", "float", "-11.99", 0));
    let s = stopped(44, locals);
    let mut ui = ui_at(44);
    ui.focus = Focus::Variables;
    ui.scopes = vec![Var {
        name: "Globals".into(),
        reference: 1,
        ..Default::default()
    }];
    insta::assert_snapshot!(screen(&s, &ui, None, 120, 36));
}

#[test]
fn the_traceback_over_the_screen() {
    let s = stopped(46, demo_locals());
    let context = ExceptionContext {
        thread_id: 1,
        exception: ExceptionSummary {
            type_name: "RuntimeError".into(),
            message: "cannot load the record".into(),
            is_first_chance: Some(false),
            stack_trace_string: "Traceback (most recent call last):\n  File \"/ws/crash.py\", line 7, in load\n    return parse(text)\n  File \"/ws/crash.py\", line 2, in parse\n    return int(text)\nValueError: invalid literal for int() with base 10: 'x1'\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File \"/ws/crash.py\", line 12, in <module>\n    load('x1')\n  File \"/ws/crash.py\", line 9, in load\n    raise RuntimeError('cannot load the record') from e\nRuntimeError: cannot load the record".into(),
        },
        inner_exceptions: vec![InnerException {
            type_name: "ValueError".into(),
            message: "invalid literal for int() with base 10: 'x1'".into(),
            depth: 1,
            relation: "cause".into(),
        }],
        inner_exceptions_truncated: false,
        frames: vec![],
        total_frames: 2,
        throwing_frame_index: 0,
    };
    let ui = UiState {
        traceback: Some(Traceback::new(&context)),
        ..ui_at(46)
    };
    insta::assert_snapshot!(screen(&s, &ui, None, 100, 24));
}
