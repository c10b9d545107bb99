//! Where each pane goes for a screen size and UI state: the source keeps at
//! least half the rows, the agent's pane takes room only once an agent has
//! connected, and a narrow screen puts the side panes under the source.

use ratatui::layout::{Constraint, Direction, Layout, Rect};

use super::state::{Focus, UiState};

pub struct Areas {
    pub source: Rect,
    /// The native view (disassembly, memory): beside or under the source
    /// for the disassembly, as gdb's `layout split`; in its place for
    /// memory. Empty when none is shown.
    pub native: Rect,
    pub stack: Rect,
    pub variables: Rect,
    pub watches: Rect,
    pub breakpoints: Rect,
    pub output: Rect,
    pub console: Rect,
    pub activity: Rect,
    pub status: Rect,
}

const NONE: Rect = Rect::new(0, 0, 0, 0);

/// Below this width the side panes go under the source.
const NARROW_BELOW: u16 = 100;

/// Below this height the side and bottom panes would squeeze the source
/// to a few rows: one of them shows at a time instead.
const COMPACT_BELOW: u16 = 20;

/// The stack pane's width on a narrow screen: a frame such as
/// `▶ inv::store::Store::find` and the start of its file.
const NARROW_STACK_WIDTH: u16 = 27;

/// Under this many rows beside the source's, the watches and breakpoints
/// show only in place of the variables, while focused.
const ROWS_FOR_ALL_SIDE_PANES: u16 = 14;

/// The areas as drawn for this UI state, for mouse hits too.
pub fn layout(size: Rect, ui: &UiState) -> Areas {
    let mut a = match ui.zoomed {
        Some(pane) => zoomed(size, pane),
        None if size.height < COMPACT_BELOW => compact(size, ui.focus),
        None if size.width < NARROW_BELOW => narrow(size, ui),
        None => wide(size, ui),
    };
    (a.source, a.native) = split_native(a.source, ui);
    a
}

/// From this width the disassembly goes beside the source, each with room
/// for a line of code or an instruction.
const SIDE_BY_SIDE_FROM: u16 = 120;

/// Under this many rows the disassembly takes the source's place: split,
/// neither would show enough to read.
const SPLIT_FROM_ROWS: u16 = 14;

/// The source pane's area divided between the source and the native view.
fn split_native(area: Rect, ui: &UiState) -> (Rect, Rect) {
    if !ui.native.shown() {
        return (area, NONE);
    }
    if !ui.native.disassembly_shown()
        || area.height < SPLIT_FROM_ROWS && area.width < SIDE_BY_SIDE_FROM
    {
        return (NONE, area);
    }
    if area.width >= SIDE_BY_SIDE_FROM {
        let [source, native] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(area);
        return (source, native);
    }
    // The source keeps a few lines around the current one; the
    // instructions, denser, get the rest.
    let [source, native] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Percentage(40), Constraint::Percentage(60)])
        .areas(area);
    (source, native)
}

/// The agent's pane has room once an agent connected or a call showed in
/// it (the person's own `pairdbg ctl` is logged there too), or while
/// focused.
fn agent_shown(ui: &UiState) -> bool {
    ui.agent_joined || !ui.activity.is_empty() || ui.focus == Focus::Activity
}

/// Side panes on the right of the source; output, console and the agent's
/// pane along the bottom.
fn wide(size: Rect, ui: &UiState) -> Areas {
    let bottom_h = if size.height >= 30 { 10 } else { 7 };
    let [main, bottom, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Min(6),
            Constraint::Length(bottom_h),
            Constraint::Length(1),
        ])
        .areas(size);
    let [source, side] = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([Constraint::Percentage(60), Constraint::Percentage(40)])
        .areas(main);
    let [stack, variables, watches, breakpoints] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Percentage(28),
            Constraint::Percentage(34),
            Constraint::Percentage(18),
            Constraint::Percentage(20),
        ])
        .areas(side);
    let (output, console, activity) = if agent_shown(ui) {
        let [o, c, a] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([
                Constraint::Percentage(30),
                Constraint::Percentage(30),
                Constraint::Percentage(40),
            ])
            .areas(bottom);
        (o, c, a)
    } else {
        let [o, c] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(bottom);
        (o, c, NONE)
    };
    Areas {
        source,
        native: NONE,
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

/// The source across the top with at least half the rows; under it the
/// stack (the agent's pane under it once it has room), the variables, and
/// output over console.
fn narrow(size: Rect, ui: &UiState) -> Areas {
    let rows = size.height.saturating_sub(1);
    let source_h = (size.height / 2 + 2).max(rows * 3 / 5);
    let [source, under, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(source_h),
            Constraint::Min(0),
            Constraint::Length(1),
        ])
        .areas(size);
    let [left, middle, right] = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([
            Constraint::Length(NARROW_STACK_WIDTH),
            Constraint::Fill(1),
            Constraint::Fill(1),
        ])
        .areas(under);
    let (stack, activity) = if agent_shown(ui) {
        let [s, a] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Percentage(55), Constraint::Min(3)])
            .areas(left);
        (s, a)
    } else {
        (left, NONE)
    };
    let [output, console] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Percentage(50), Constraint::Min(4)])
        .areas(right);
    let (variables, watches, breakpoints) = if under.height >= ROWS_FOR_ALL_SIDE_PANES {
        let [v, w, b] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([
                Constraint::Percentage(50),
                Constraint::Percentage(25),
                Constraint::Percentage(25),
            ])
            .areas(middle);
        (v, w, b)
    } else {
        match ui.focus {
            Focus::Watches => (NONE, middle, NONE),
            Focus::Breakpoints => (NONE, NONE, middle),
            _ => (middle, NONE, NONE),
        }
    };
    Areas {
        source,
        native: NONE,
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
    let put = |p: Focus| if p == shown { under } else { NONE };
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

/// One pane over the whole screen; the others get no room.
fn zoomed(size: Rect, pane: Focus) -> Areas {
    let [main, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(3), Constraint::Length(1)])
        .areas(size);
    let pick = |p: Focus| if p == pane { main } else { NONE };
    Areas {
        source: pick(Focus::Source),
        native: NONE,
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
        // The keys page the native view while one is shown.
        Focus::Source if ui.native.shown() => a.native,
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

/// Rows of the shown native view, for paging it.
pub fn native_rows(size: Rect, ui: &UiState) -> usize {
    layout(size, ui).native.height.saturating_sub(2) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ui(joined: bool) -> UiState {
        UiState {
            agent_joined: joined,
            ..Default::default()
        }
    }

    #[test]
    fn at_80x24_the_source_keeps_half_the_rows_and_the_agent_waits() {
        let size = Rect::new(0, 0, 80, 24);
        let a = layout(size, &ui(false));
        assert!(a.source.height >= 14, "{:?}", a.source);
        assert!(a.stack.width >= 27, "{:?}", a.stack);
        assert_eq!(a.activity, NONE);
        let a = layout(size, &ui(true));
        assert!(a.source.height >= 14, "{:?}", a.source);
        assert!(
            a.activity.height >= 3 && a.stack.height >= 5,
            "{:?}",
            a.activity
        );
    }

    #[test]
    fn wide_screens_keep_their_layout_and_give_the_agent_the_bottom_right() {
        for (w, h) in [(120, 40), (200, 50)] {
            let size = Rect::new(0, 0, w, h);
            let before = layout(size, &ui(false));
            let after = layout(size, &ui(true));
            assert_eq!(before.source, after.source);
            assert_eq!(before.activity, NONE);
            assert_eq!(after.activity.width, w - w * 3 / 5);
        }
    }
}
