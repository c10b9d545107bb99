//! The whole screen as a pure function of (snapshot, UI state, theme).

use ratatui::Frame;

use super::action::Keymap;
use super::highlight;
pub use super::layout::{Areas, layout, pane_rows, source_rows};
use super::panes;
use super::state::UiState;
use super::theme::Theme;
use crate::session::ControlMode;
use crate::session::types::{Snapshot, SourceFile, Var};

pub struct View<'a> {
    pub snap: &'a Snapshot,
    pub ui: &'a UiState,
    pub theme: &'a Theme,
    pub mode: ControlMode,
    /// The file the source pane shows, and its colours once ready.
    pub file: Option<&'a SourceFile>,
    pub colours: Option<&'a [highlight::Line]>,
    /// The locals at the previous stop, to light what changed.
    pub previous: Option<&'a [Var]>,
    pub keymap: &'a Keymap,
}

pub fn draw(f: &mut Frame, v: &View) {
    let a = layout(f.area(), v.ui);
    super::native::render(f, a.native, v.snap, v.ui, v.theme);
    if a.source.area() > 0 {
        panes::source::render(
            f, a.source, v.snap, v.ui, v.theme, v.file, v.colours, v.previous,
        );
    }
    panes::stack::render(f, a.stack, v.snap, v.ui, v.theme);
    panes::variables::render(f, a.variables, v.snap, v.ui, v.theme, v.previous);
    panes::watches::render(f, a.watches, v.snap, v.ui, v.theme);
    panes::breakpoints::render(f, a.breakpoints, v.snap, v.ui, v.theme);
    panes::output::render(f, a.output, v.ui, v.theme);
    panes::console::render(f, a.console, v.ui, v.theme);
    panes::activity::render(f, a.activity, v.ui, v.theme);
    let shown = panes::status::render(f, a.status, v.snap, v.ui, v.theme, v.mode);
    if !shown && let Some(m) = &v.ui.message {
        panes::messages::message_line(f, a.status, m, v.theme);
    }
    if let Some((query, selected)) = &v.ui.picker {
        panes::files::render(
            f,
            f.area(),
            v.theme,
            &v.ui.files,
            &v.ui.workspace,
            query,
            *selected,
        );
    }
    if let Some((query, selected)) = &v.ui.past_list {
        panes::journals::render(f, f.area(), v.theme, &v.ui.past_rows, query, *selected);
    }
    if let Some((query, selected)) = &v.ui.palette {
        panes::palette::render(f, f.area(), v.keymap, v.theme, query, *selected);
    }
    if v.ui.show_help {
        panes::help::render(f, f.area(), v.keymap, v.theme, v.ui.help_scroll);
    }
    if v.ui.show_messages {
        panes::messages::render(f, f.area(), &v.ui.messages, v.theme);
    }
    if let Some(tb) = &v.ui.traceback {
        panes::traceback::render(f, f.area(), tb, v.theme);
    }
    if let Some(viewer) = &v.ui.viewer {
        panes::viewer::render(f, f.area(), viewer, v.ui, v.theme);
    }
    if let Some(r) = &v.ui.approval {
        panes::approval::render(f, f.area(), &r.what, v.theme);
    }
}
