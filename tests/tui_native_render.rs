//! The native views as pure renders: the disassembly view with its source
//! lines and current instruction, under or beside the source, the memory
//! view, and the registers scope collapsed under the locals.

use std::path::PathBuf;

use pairdbg::session::ControlMode;
use pairdbg::session::native::{Disassembly, Instruction, Memory, SourceLine};
use pairdbg::session::types::*;
use pairdbg::tui::draw::{View, draw};
use pairdbg::tui::native::NativeView;
use pairdbg::tui::state::UiState;
use pairdbg::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn local(name: &str, t: &str, value: &str) -> Var {
    Var {
        name: name.into(),
        value: value.into(),
        type_name: t.into(),
        evaluate_name: Some(name.into()),
        language: pairdbg::adapters::value::LanguageOf(Some(
            pairdbg::adapters::for_language("c")
                .expect("lldb-dap is registered")
                .language(),
        )),
        ..Default::default()
    }
}

fn stopped() -> Snapshot {
    let mut s = Snapshot::new("s1".into(), "./inventory".into(), PathBuf::from("/ws"));
    s.state = RunState::Stopped;
    s.stop_seq = 1;
    let frame = |id, name: &str, line| Frame {
        id,
        name: name.into(),
        external: false,
        file: Some(PathBuf::from("/ws/inventory.c")),
        line,
        params: None,
        pc: None,
    };
    s.stop = Some(StopInfo {
        reason: "breakpoint".into(),
        description: None,
        thread_id: 1,
        frames: vec![frame(1, "needs_restock", 22), frame(2, "count_restock", 29)],
        total_frames: 2,
        locals: vec![
            local("it", "const item *", "0x00007ffc5a1e2b40"),
            local("margin", "int", "0"),
        ],
        locals_reference: 3,
        exception: None,
        source: None,
        files: vec![],
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

fn instruction(address: u64, text: &str, source: Option<(u64, &str)>) -> Instruction {
    Instruction {
        address,
        bytes: String::new(),
        text: text.into(),
        symbol: Some(format!("needs_restock + {}", address - 0x1150)),
        source: source.map(|(line, t)| SourceLine {
            file: PathBuf::from("/ws/inventory.c"),
            line,
            text: Some(t.into()),
        }),
    }
}

fn ui_with(view: NativeView) -> UiState {
    let mut ui = UiState {
        file: Some(PathBuf::from("/ws/inventory.c")),
        cursor: 22,
        followed_stop: 1,
        ..Default::default()
    };
    ui.native.view = view;
    ui.scopes = vec![pairdbg::session::types::Var {
        name: "Registers".into(),
        reference: 1,
        ..Default::default()
    }];
    ui
}

/// The C file the frames stop in: line 22 is the current line.
fn inventory_c() -> SourceFile {
    let mut lines: Vec<String> = (1..=20).map(|n| format!("/* {n} */")).collect();
    lines.extend([
        "static int needs_restock(const struct item *it, int margin) {".to_string(),
        "    int threshold = it->minimum + margin;".to_string(),
        "    return it->stock < threshold;".to_string(),
        "}".to_string(),
    ]);
    SourceFile {
        path: PathBuf::from("/ws/inventory.c"),
        lines,
    }
}

fn screen(snap: &Snapshot, ui: &UiState) -> String {
    screen_sized(snap, ui, 120, 30)
}

fn screen_sized(snap: &Snapshot, ui: &UiState, width: u16, height: u16) -> String {
    let file = inventory_c();
    let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
    let keymap = pairdbg::tui::action::Keymap::default();
    let theme = Theme::default();
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
                previous: None,
                keymap: &keymap,
            },
        )
    })
    .unwrap();
    t.backend().to_string()
}

fn disassembly() -> Disassembly {
    Disassembly {
        frame_index: 0,
        pc: 0x115b,
        instructions: vec![
            instruction(
                0x1150,
                "push   rbp",
                Some((
                    21,
                    "static int needs_restock(const struct item *it, int margin) {",
                )),
            ),
            instruction(0x1151, "mov    rbp, rsp", None),
            instruction(0x1154, "mov    qword ptr [rbp - 0x8], rdi", None),
            instruction(0x1158, "mov    dword ptr [rbp - 0xc], esi", None),
            instruction(
                0x115b,
                "mov    rax, qword ptr [rbp - 0x8]",
                Some((22, "int threshold = it->minimum + margin;")),
            ),
            instruction(0x115f, "mov    eax, dword ptr [rax + 0x14]", None),
            instruction(0x1162, "add    eax, dword ptr [rbp - 0xc]", None),
            instruction(0x1165, "mov    dword ptr [rbp - 0x10], eax", None),
            instruction(
                0x1168,
                "mov    rax, qword ptr [rbp - 0x8]",
                Some((23, "return it->stock < threshold;")),
            ),
        ],
    }
}

fn disassembly_shown() -> UiState {
    let mut ui = ui_with(NativeView::Disassembly {
        read: Some(Ok(disassembly())),
        scroll: None,
        stop_seq: 1,
    });
    ui.scroll = 18;
    ui
}

/// Under the source at 120 columns, as gdb's `layout split`: the current
/// line stays in view above its instructions.
#[test]
fn the_disassembly_marks_the_current_instruction_under_its_source_line() {
    let screen = screen(&stopped(), &disassembly_shown());
    let source = screen.find("int threshold = it->minimum + margin;");
    let asm = screen.find("→ 0x00000000115b");
    assert!(
        matches!((source, asm), (Some(s), Some(a)) if s < a),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

/// Beside the source on a wide screen.
#[test]
fn on_a_wide_screen_the_disassembly_shows_beside_the_source() {
    let screen = screen_sized(&stopped(), &disassembly_shown(), 200, 30);
    let row = screen
        .lines()
        .find(|l| l.contains("→ 0x00000000115b"))
        .unwrap_or_else(|| panic!("the current instruction in:\n{screen}"));
    assert!(!row.contains("threshold"), "{row}");
    // The source pane is on the disassembly's left, on the same rows.
    let title = screen
        .lines()
        .find(|l| l.contains("╭ disassembly"))
        .unwrap_or_else(|| panic!("the disassembly's title in:\n{screen}"));
    assert!(
        !title.trim_start_matches('"').starts_with("╭ disassembly"),
        "{screen}"
    );
    assert!(
        screen.contains("int threshold = it->minimum + margin;"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn the_memory_view_shows_hex_and_text() {
    let mut data = b"widget\0\0\0\0\0\0\0\0\0\0".to_vec();
    data.extend([12, 0, 0, 0, 5, 0, 0, 0]);
    data.extend(b"bolt\0\0\0\0\0\0\0\0\0\0\0\0");
    let ui = ui_with(NativeView::Memory {
        memory: Memory {
            expression: "it".into(),
            reference: "0x7ffc5a1e2b40".into(),
            address: 0x7ffc_5a1e_2b40,
            data,
            unreadable: 0,
        },
        scroll: 0,
        reading: false,
    });
    insta::assert_snapshot!(screen(&stopped(), &ui));
}
