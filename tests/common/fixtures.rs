//! Hand-built snapshot parts for the render tests: the demo's source, frames
//! in it, and variables.

use std::path::PathBuf;

use pairdbg::session::types::{Frame, SourceFile, Var};

pub fn var(name: &str, t: &str, value: &str, reference: i64) -> Var {
    Var {
        name: name.into(),
        value: value.into(),
        type_name: t.into(),
        reference,
        evaluate_name: Some(name.into()),
        children: None,
        truncated: false,
        length: None,
        indexed: None,
        // As a read marks (or drops) them: the adapter's groups and dunders.
        hidden: !python().language().is_shown(name, value),
        not_read: None,
        composed: false,
        language: pairdbg::adapters::value::LanguageOf(Some(python().language())),
    }
}

pub fn demo_source() -> SourceFile {
    let text = include_str!("../../assets/demo/order.py");
    SourceFile {
        path: PathBuf::from("/ws/assets/demo/order.py"),
        lines: text.lines().map(str::to_string).collect(),
    }
}

pub fn frame(id: i64, name: &str, line: u64) -> Frame {
    Frame {
        id,
        name: name.into(),
        external: false,
        file: Some(PathBuf::from("/ws/assets/demo/order.py")),
        line,
        // As the stop reads them: Python's parameters, from the demo's source.
        params: python()
            .language()
            .parameters(&demo_source().lines, name, line),
        pc: None,
    }
}

fn python() -> pairdbg::adapters::AdapterRef {
    pairdbg::adapters::for_language("python").expect("python")
}

/// The whole screen drawn into a test terminal of `w`×`h`: `file` in the
/// source pane, and `previous` locals to light what changed.
pub fn render_screen(
    snap: &pairdbg::session::types::Snapshot,
    ui: &pairdbg::tui::state::UiState,
    file: Option<&SourceFile>,
    previous: Option<&[Var]>,
    theme: &pairdbg::tui::theme::Theme,
    (w, h): (u16, u16),
) -> ratatui::backend::TestBackend {
    use pairdbg::tui::draw::{View, draw};
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    let keymap = pairdbg::tui::action::Keymap::default();
    t.draw(|f| {
        draw(
            f,
            &View {
                snap,
                ui,
                theme,
                mode: pairdbg::session::ControlMode::Shared,
                file,
                colours: None,
                previous,
                keymap: &keymap,
            },
        )
    })
    .unwrap();
    t.backend().clone()
}
