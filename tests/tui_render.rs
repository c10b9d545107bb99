//! Every pane is a pure function of (snapshot, UI state, theme): these pin
//! the whole screen in the key states.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use pairdbg::session::output::Stream;
use pairdbg::session::types::*;
use pairdbg::tui::state::{ConsoleEntry, Focus, UiState};
use pairdbg::tui::theme::Theme;
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
        kind: pairdbg::session::types::BreakpointKind::Blocking,
        function: None,
        file: PathBuf::from("/ws/assets/demo/order.py"),
        line,
        statement: None,
        resolved: None,
        hits: 0,
        trace: None,
        condition: condition.map(str::to_string),
        hit_condition: None,
        log_message: None,
        origin,
        verified,
        bound_line: None,
        line_text: None,
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
    s.available_exception_filters = vec![
        ("raised".into(), "Raised Exceptions".into()),
        ("uncaught".into(), "Uncaught Exceptions".into()),
    ];
    s.exception_filters = vec!["uncaught".into()];
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
        hit: None,
        condition_error: None,
        process: None,
        child: None,
        connection: 0,
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
        input: Some("subtotal * 2".into()),
        output: Ok("239.88  (float)".into()),
    });
    ui
}

fn screen(snap: &Snapshot, ui: &UiState, previous: Option<&[Var]>, w: u16, h: u16) -> String {
    render(snap, ui, previous, &Theme::default(), w, h).to_string()
}

fn render(
    snap: &Snapshot,
    ui: &UiState,
    previous: Option<&[Var]>,
    theme: &Theme,
    w: u16,
    h: u16,
) -> TestBackend {
    common::fixtures::render_screen(snap, ui, Some(&source()), previous, theme, (w, h))
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
            raised_at: None,
            qualified_type: None,
            first_chance: None,
            break_mode: None,
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
        ..Default::default()
    });
    let mut ui = ui_at(1);
    ui.show_help = true;
    insta::assert_snapshot!(screen(&s, &ui, None, 120, 36));
}

/// The style of the first cell of the first occurrence of `needle` on screen
/// (searched row by row), with the cell's position.
fn style_of(b: &TestBackend, needle: &str) -> (u16, u16, ratatui::style::Style) {
    let buf = b.buffer();
    let w = buf.area.width;
    for y in 0..buf.area.height {
        let row: Vec<String> = (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect();
        let text: String = row.concat();
        if let Some(byte) = text.find(needle) {
            // Columns, not bytes: every cell holds one symbol.
            let mut col = 0u16;
            let mut seen = 0usize;
            for sym in &row {
                if seen >= byte {
                    break;
                }
                seen += sym.len();
                col += 1;
            }
            return (col, y, buf[(col, y)].style());
        }
    }
    panic!("{needle:?} is not on screen:\n{}", b);
}

#[test]
fn colours_mark_changes_breakpoint_owners_and_the_current_line() {
    let theme = Theme::default();
    let s = stopped("step", 44, None);
    let previous = vec![
        var("subtotal", "float", "89.97", 0),
        var("tax_rate", "float", "0.08", 0),
    ];
    let b = render(&s, &ui_at(40), Some(&previous), &theme, 120, 36);

    // A value that changed since the previous stop is lit; one that did not is not.
    let value = |b: &TestBackend, line: &str| {
        let (x, y, _) = style_of(b, line);
        let at = line.find("= ").expect("name = value") as u16 + 2;
        b.buffer()[(x + at, y)].style()
    };
    let changed = value(&b, "subtotal = 119.94");
    assert_eq!(changed.fg, theme.changed.fg, "subtotal changed");
    let same = value(&b, "tax_rate = 0.08");
    assert_eq!(same.fg, theme.text.fg, "tax_rate did not change");
    assert_ne!(theme.changed.fg, theme.text.fg);

    // The gutter: the person's breakpoint (44) and the agent's (36) differ.
    let (x44, y44, _) = style_of(&b, "→44 ");
    let human = b.buffer()[(x44 - 1, y44)].clone();
    assert_eq!(human.symbol(), "●");
    assert_eq!(
        human.style().fg,
        theme.breakpoint.fg,
        "the person's breakpoint"
    );
    let (x36, y36, _) = style_of(&b, " 36 ");
    let agent = b.buffer()[(x36 - 1, y36)].clone();
    assert_eq!(agent.symbol(), "●");
    assert_eq!(
        agent.style().fg,
        theme.breakpoint_agent.fg,
        "the agent's breakpoint"
    );
    assert_ne!(theme.breakpoint.fg, theme.breakpoint_agent.fg);

    // The current line carries its own background across the code.
    let code = b.buffer()[(x44 + 5, y44)].style();
    assert_eq!(code.bg, theme.current_line.bg, "the current line");
    let other = b.buffer()[(x36 + 6, y36)].style();
    assert_ne!(other.bg, theme.current_line.bg, "another line");

    // At an exception the line is marked as such, not as a plain stop.
    let ex = stopped(
        "exception",
        44,
        Some(ExceptionDetails {
            type_name: "ValueError".into(),
            message: "negative total".into(),
            raised_at: None,
            qualified_type: None,
            first_chance: None,
            break_mode: None,
        }),
    );
    let eb = render(&ex, &ui_at(40), None, &theme, 120, 36);
    assert_eq!(
        eb.buffer()[(x44 + 5, y44)].style().bg,
        theme.exception_line.bg,
        "the exception line"
    );
    assert_ne!(theme.exception_line.bg, theme.current_line.bg);

    // Another theme paints the same screen differently.
    let light = Theme::load("light").expect("the light theme");
    let lb = render(&s, &ui_at(40), Some(&previous), &light, 120, 36);
    assert_eq!(value(&lb, "subtotal = 119.94").fg, light.changed.fg);
    assert_ne!(lb.buffer()[(x44 + 5, y44)].style().bg, code.bg);
}

#[test]
fn the_breakpoints_pane_lists_exception_filters_after_the_breakpoints() {
    let s = stopped("breakpoint", 44, None);
    let mut ui = ui_at(44);
    ui.focus = Focus::Breakpoints;
    ui.zoomed = Some(Focus::Breakpoints);
    ui.selected_breakpoint = 3;
    let text = screen(&s, &ui, None, 80, 12);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("order.py:") || l.contains("Exceptions"))
        .collect();
    assert_eq!(rows.len(), 5, "{text}");
    assert!(rows[0].contains("order.py:36 agent"), "{text}");
    assert!(rows[3].contains("☐ Raised Exceptions"), "{text}");
    assert!(rows[4].contains("☑ Uncaught Exceptions"), "{text}");
    insta::assert_snapshot!(text);
}
