//! The whole screen as a pure function of (snapshot, UI state, theme).

use ratatui::Frame;
use ratatui::layout::{Constraint, Direction, Layout, Rect};

use super::action::Keymap;
use super::highlight;
use super::panes;
use super::state::{Focus, UiState};
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

pub struct Areas {
    pub source: Rect,
    pub stack: Rect,
    pub variables: Rect,
    pub watches: Rect,
    pub breakpoints: Rect,
    pub output: Rect,
    pub console: Rect,
    pub activity: Rect,
    pub status: Rect,
}

/// The layout adapts to the size: side panes go below the source when the
/// screen is narrow.
pub fn areas(size: Rect) -> Areas {
    let bottom_h = if size.height >= 30 { 10 } else { 7 };
    let [main, bottom, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Min(6),
            Constraint::Length(bottom_h),
            Constraint::Length(1),
        ])
        .areas(size);
    let narrow = size.width < 100;
    let (source, side) = if narrow {
        let [s, d] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Percentage(60), Constraint::Percentage(40)])
            .areas(main);
        (s, d)
    } else {
        let [s, d] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(60), Constraint::Percentage(40)])
            .areas(main);
        (s, d)
    };
    let [stack, variables, watches, breakpoints] = if narrow {
        let [st, va, rest] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([
                Constraint::Percentage(25),
                Constraint::Percentage(40),
                Constraint::Percentage(35),
            ])
            .areas(side);
        let [wa, bp] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(rest);
        [st, va, wa, bp]
    } else {
        Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Percentage(28),
                Constraint::Percentage(34),
                Constraint::Percentage(18),
                Constraint::Percentage(20),
            ])
            .areas(side)
    };
    let [output, console, activity] = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([
            Constraint::Percentage(30),
            Constraint::Percentage(30),
            Constraint::Percentage(40),
        ])
        .areas(bottom);
    Areas {
        source,
        stack,
        variables,
        watches,
        breakpoints,
        output,
        console,
        activity,
        status,
    }
}

/// The areas as drawn for this UI state, for mouse hits too.
pub fn layout(size: Rect, ui: &UiState) -> Areas {
    match ui.zoomed {
        Some(pane) => zoomed(size, pane),
        None if size.height < COMPACT_BELOW => compact(size, ui.focus),
        None => areas(size),
    }
}

/// Below this height the side and bottom panes would squeeze the source
/// to a few rows: one of them shows at a time instead.
const COMPACT_BELOW: u16 = 20;

/// A small screen: the source keeps most rows; under it one pane, the
/// focused one (the variables while the source has focus).
fn compact(size: Rect, focus: Focus) -> Areas {
    let strip = (size.height / 3).max(3);
    let [main, under, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Min(3),
            Constraint::Length(strip),
            Constraint::Length(1),
        ])
        .areas(size);
    let shown = if focus == Focus::Source {
        Focus::Variables
    } else {
        focus
    };
    let mut a = zoomed(size, shown);
    a.source = main;
    let none = Rect::new(0, 0, 0, 0);
    let put = |p: Focus| if p == shown { under } else { none };
    a.stack = put(Focus::Stack);
    a.variables = put(Focus::Variables);
    a.watches = put(Focus::Watches);
    a.breakpoints = put(Focus::Breakpoints);
    a.output = put(Focus::Output);
    a.console = put(Focus::Console);
    a.activity = put(Focus::Activity);
    a.status = status;
    a
}

pub fn draw(f: &mut Frame, v: &View) {
    let a = layout(f.area(), v.ui);
    if !super::native::render(f, a.source, v.snap, v.ui, v.theme) {
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

/// One pane over the whole screen; the others get no room.
fn zoomed(size: Rect, pane: Focus) -> Areas {
    let [main, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(3), Constraint::Length(1)])
        .areas(size);
    let none = Rect::new(0, 0, 0, 0);
    let pick = |p: Focus| if p == pane { main } else { none };
    Areas {
        source: pick(Focus::Source),
        stack: pick(Focus::Stack),
        variables: pick(Focus::Variables),
        watches: pick(Focus::Watches),
        breakpoints: pick(Focus::Breakpoints),
        output: pick(Focus::Output),
        console: pick(Focus::Console),
        activity: pick(Focus::Activity),
        status,
    }
}

/// Rows inside a pane as drawn, for paging by the pane's own height.
pub fn pane_rows(size: Rect, ui: &UiState, pane: Focus) -> usize {
    let a = layout(size, ui);
    let r = match pane {
        Focus::Source => a.source,
        Focus::Stack => a.stack,
        Focus::Variables => a.variables,
        Focus::Watches => a.watches,
        Focus::Breakpoints => a.breakpoints,
        Focus::Output => a.output,
        Focus::Console => a.console,
        Focus::Activity => a.activity,
    };
    r.height.saturating_sub(2) as usize
}

/// Source rows visible for a screen size and zoom, for scrolling.
pub fn source_rows(size: Rect, ui: &UiState) -> usize {
    layout(size, ui).source.height.saturating_sub(2) as usize
}
