//! The program's terminal as the output pane draws it: the prompt, what
//! the person typed (echoed by the terminal), stderr marked, the title
//! saying keys go to the program, and the cursor after the prompt.

use pairdbg::session::output::Stream;
use pairdbg::tui::panes::output;
use pairdbg::tui::state::{Focus, UiState};
use pairdbg::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn pane(ui: &UiState) -> (String, (u16, u16)) {
    let mut t = Terminal::new(TestBackend::new(48, 7)).expect("terminal");
    t.draw(|f| output::render(f, f.area(), ui, &Theme::default()))
        .expect("draw");
    let cursor = t.get_cursor_position().expect("cursor");
    (t.backend().to_string(), (cursor.x, cursor.y))
}

fn asking() -> UiState {
    let mut ui = UiState {
        focus: Focus::Output,
        ..Default::default()
    };
    ui.push_output(Stream::Stdout, "name? ");
    ui.push_output(Stream::Stdout, "Ada\n");
    ui.push_output(Stream::Stdout, "hello Ada\n");
    ui.push_output(Stream::Stderr, "warning: no age given\n");
    ui.push_output(Stream::Stdout, "age? ");
    ui
}

#[test]
fn the_program_terminal_while_the_person_types() {
    let mut ui = asking();
    ui.typing_to_program = true;
    let (text, cursor) = pane(&ui);
    insta::assert_snapshot!(text);
    assert_eq!(cursor, (6, 4), "the cursor follows `age? `");
}

#[test]
fn the_focused_output_pane_says_how_to_type() {
    let (text, _) = pane(&asking());
    assert!(text.contains("output · Enter types"), "{text}");
    assert!(!text.contains("Esc stops"), "{text}");
}
