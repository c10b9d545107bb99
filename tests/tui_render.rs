//! Every pane is a pure function of (snapshot, UI state, theme): these pin
//! the whole screen in the key states.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use pairdbg::session::ControlMode;
use pairdbg::session::output::Stream;
use pairdbg::session::types::*;
use pairdbg::tui::draw::{View, draw};
use pairdbg::tui::state::{ConsoleEntry, Focus, UiState};
use pairdbg::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use common::fixtures::{demo_source as source, frame, var};

fn breakpoint(
    id: u64,
    line: u64,
    origin: Origin,
    verified: bool,
    condition: Option<&str>,
) -> Breakpoint {
    Breakpoint {
        id,
        file: PathBuf::from("/ws/assets/demo/order.py"),
        line,
        condition: condition.map(str::to_string),
        hit_condition: None,
        log_message: None,
        origin,
        verified,
        bound_line: None,
        message: None,
        enabled: true,
        temporary: false,
    }
}

fn base(state: RunState) -> Snapshot {
    let mut s = Snapshot::new(
        "s1".into(),
        "assets/demo/order.py".into(),
        PathBuf::from("/ws"),
    );
    s.state = state;
    s.epoch = 9;
    s.breakpoints = vec![
        breakpoint(1, 44, Origin::Human, true, None),
        breakpoint(2, 36, Origin::Agent, true, None),
        breakpoint(3, 46, Origin::Human, false, Some("total > 100")),
    ];
    s.watches = vec![
        WatchValue {
            expression: "len(cart.items)".into(),
            origin: Origin::Human,
            value: Ok(var("len(cart.items)", "int", "3", 0)),
        },
        WatchValue {
            expression: "discount".into(),
            origin: Origin::Agent,
            value: Err("NameError: name 'discount' is not defined".into()),
        },
    ];
    s
}

fn stopped(reason: &str, line: u64, exception: Option<ExceptionDetails>) -> Snapshot {
    let mut s = base(RunState::Stopped);
    s.stop_seq = 2;
    let mut user = var("user", "User", "<__main__.User object at 0x1>", 9);
    user.children = Some(vec![
        var("id", "int", "482", 0),
        var("tier", "str", "'gold'", 0),
    ]);
    s.stop = Some(StopInfo {
        reason: reason.into(),
        description: None,
        thread_id: 1,
        frames: vec![
            frame(2, "process_order", line),
            frame(3, "main", 56),
            frame(4, "<module>", 61),
        ],
        total_frames: 3,
        locals: vec![
            var(
                "cart",
                "Cart",
                "Cart(items=[Item(name='keyboard', price=49.99, quantity=1)])",
                5,
            ),
            var("subtotal", "float", "119.94", 0),
            var("tax_rate", "float", "0.08", 0),
            user,
        ],
        locals_reference: 4,
        exception,
        source: Some(Arc::new(source())),
        files: vec![Arc::new(source())],
        callers: vec![],
        thread_note: None,
    });
    s
}

fn ui_at(line: usize) -> UiState {
    let mut ui = UiState {
        file: Some(PathBuf::from("/ws/assets/demo/order.py")),
        cursor: line,
        scroll: line.saturating_sub(6).max(1),
        ..Default::default()
    };
    ui.push_output(Stream::Stdout, "Order total for user 482: 141.53\n");
    ui.push_output(Stream::Stderr, "warning: discount is negative\n");
    ui.console.push(ConsoleEntry {
        input: "subtotal * 2".into(),
        output: Ok("239.88  (float)".into()),
    });
    ui
}

fn screen(snap: &Snapshot, ui: &UiState, previous: Option<&[Var]>, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    let theme = Theme::default();
    let keymap = pairdbg::tui::action::Keymap::default();
    let file = source();
    t.draw(|f| {
        draw(
            f,
            &View {
                snap,
                ui,
                theme: &theme,
                mode: ControlMode::Shared,
                file: Some(&file),
                colours: None,
                previous,
                keymap: &keymap,
            },
        )
    })
    .unwrap();
    t.backend().to_string()
}

#[test]
fn stopped_at_a_breakpoint() {
    let s = stopped("breakpoint", 44, None);
    let previous = vec![var("subtotal", "float", "89.97", 0)];
    insta::assert_snapshot!(screen(&s, &ui_at(44), Some(&previous), 120, 36));
}

#[test]
fn stopped_at_an_exception_in_a_small_terminal() {
    let s = stopped(
        "exception",
        46,
        Some(ExceptionDetails {
            type_name: "ValueError".into(),
            message: "negative total".into(),
        }),
    );
    let mut ui = ui_at(46);
    ui.focus = Focus::Variables;
    insta::assert_snapshot!(screen(&s, &ui, None, 80, 24));
}

#[test]
fn running() {
    let s = base(RunState::Running);
    insta::assert_snapshot!(screen(&s, &ui_at(44), None, 120, 36));
}

#[test]
fn exited() {
    let mut s = base(RunState::Exited);
    s.exit = Some(ExitInfo {
        exit_code: Some(0),
        summary: String::new(),
    });
    let mut ui = ui_at(1);
    ui.show_help = true;
    insta::assert_snapshot!(screen(&s, &ui, None, 120, 36));
}
