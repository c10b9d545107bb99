//! The whole TUI screen drawn into a test terminal, as a person sees a stop.

use std::path::PathBuf;

use pairdbg::session::ControlMode;
use pairdbg::session::types::{Snapshot, Var};
use pairdbg::tui::action::Keymap;
use pairdbg::tui::draw::{View, draw};
use pairdbg::tui::state::UiState;
use pairdbg::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

pub fn screen(snap: &Snapshot, previous: &[Var]) -> Option<()> {
    let stop = snap.stop.as_ref()?;
    let file = stop.source.as_deref();
    let ui = UiState {
        file: Some(PathBuf::from(super::values::FILE)),
        cursor: stop.frames.first().map_or(1, |f| f.line as usize),
        ..Default::default()
    };
    let theme = Theme::default();
    let keymap = Keymap::default();
    let mut t = Terminal::new(TestBackend::new(100, 30)).ok()?;
    t.draw(|f| {
        draw(
            f,
            &View {
                snap,
                ui: &ui,
                theme: &theme,
                mode: ControlMode::Shared,
                file,
                colours: None,
                previous: Some(previous),
                keymap: &keymap,
            },
        )
    })
    .ok()?;
    Some(())
}
