//! What the UI remembers between frames: focus, cursors, the console. The
//! debug state itself lives in the session's snapshot.

use std::path::PathBuf;

use crate::session::output::Stream;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Source,
    Stack,
    Variables,
    Watches,
    Breakpoints,
    Output,
    Console,
    Activity,
}

impl Focus {
    pub const ORDER: [Focus; 8] = [
        Focus::Source,
        Focus::Stack,
        Focus::Variables,
        Focus::Watches,
        Focus::Breakpoints,
        Focus::Output,
        Focus::Console,
        Focus::Activity,
    ];

    pub fn next(self, back: bool) -> Focus {
        let i = Focus::ORDER.iter().position(|f| *f == self).unwrap_or(0);
        let n = Focus::ORDER.len();
        Focus::ORDER[if back { (i + n - 1) % n } else { (i + 1) % n }]
    }
}

/// The console keeps this many of the debugger's lines and answers.
pub const CONSOLE_KEEP: usize = 500;

#[derive(Debug, Clone)]
pub struct ConsoleEntry {
    /// What was evaluated; None for a line the debugger wrote about itself,
    /// which the console shows apart from the program's output.
    pub input: Option<String>,
    pub output: Result<String, String>,
}

#[derive(Debug, Clone)]
pub struct UiState {
    pub focus: Focus,
    /// The file the source pane shows.
    pub file: Option<PathBuf>,
    /// 1-based line of the source cursor.
    pub cursor: usize,
    /// First source line on screen (1-based).
    pub scroll: usize,
    /// The stop the source pane last jumped to.
    pub followed_stop: u64,
    pub selected_frame: usize,
    pub selected_var: usize,
    /// The locals of the selected frame when it is not the top one (the
    /// top frame's come with the stop).
    pub frame_locals: Option<(usize, Vec<crate::session::types::Var>)>,
    /// Expanded values of the variables tree: path → (children read, total).
    pub children: std::collections::BTreeMap<String, (Vec<crate::session::types::Var>, usize)>,
    /// Values opened whose first children are still being read.
    pub loading: std::collections::BTreeSet<String>,
    /// Values open at the last stop, read again at this one.
    pub reopening: std::collections::BTreeSet<String>,
    /// The index of the first child read, where not 0 (a jump, a page back).
    pub pages: std::collections::BTreeMap<String, usize>,
    pub selected_watch: usize,
    pub selected_breakpoint: usize,
    /// The output lines on screen, read from the session's buffer for each
    /// frame (the buffer itself is never copied).
    pub output: Vec<(Stream, String)>,
    pub output_scroll_from_end: usize,
    /// Lines the session's output buffer holds, and the first one shown.
    pub output_total: usize,
    pub output_first: usize,
    pub console: Vec<ConsoleEntry>,
    pub input: tui_input::Input,
    /// Typing into the console (or the watch editor) rather than commanding.
    pub typing: Option<Prompt>,
    /// Keys go to the program's terminal (the output pane) until Esc.
    pub typing_to_program: bool,
    pub history_pos: Option<usize>,
    pub message: Option<String>,
    /// The variable whose new value is being typed.
    pub value_path: String,
    /// The ids of the open sessions, when there are several.
    pub sessions: Vec<String>,
    pub show_help: bool,
    /// The first help row shown.
    pub help_scroll: usize,
    /// Recent status messages, oldest first, for `:messages`.
    pub messages: Vec<String>,
    pub show_messages: bool,
    /// Source columns scrolled off to the left.
    pub hscroll: usize,
    /// The person approves the agent's side effects.
    pub approve_required: bool,
    /// The agent's side effect waiting for the person's answer.
    pub approval: Option<crate::session::approval::Request>,
    /// The file picker: its query and selected row.
    pub picker: Option<(String, usize)>,
    /// Workspace files, listed when the picker first opens.
    pub files: Vec<PathBuf>,
    pub workspace: PathBuf,
    /// The last search, for repeating it.
    pub last_search: String,
    /// The command palette: its query and selected row.
    pub palette: Option<(String, usize)>,
    /// One pane over the whole screen.
    pub zoomed: Option<Focus>,
    pub tick: u64,
    pub busy: bool,
    /// A command of the person's is waiting for the adapter's answer.
    pub waiting: bool,
    /// The program's threads at the last stop, of every process.
    pub threads: Vec<crate::session::types::ThreadRow>,
    /// The agent's calls, newest last.
    pub activity: Vec<crate::session::Activity>,
    /// Where agents reach this session.
    pub endpoint: Option<String>,
    /// An agent has connected: from then on it has a pane of its own.
    pub agent_joined: bool,
    /// The disassembly and memory views, and the registers scope.
    pub native: crate::tui::native::view::NativeUi,
    /// The selected frame's scopes beside its locals, as rows to open.
    pub scopes: Vec<crate::session::types::Var>,
    /// Browsing an earlier stop, read-only: its number and the stops so far.
    pub history: Option<(usize, usize)>,
    /// The past session browsed, when not the live one.
    pub history_of: Option<String>,
    /// The list of past sessions' journals: its query and selected row.
    pub past_list: Option<(String, usize)>,
    /// Past sessions' journals, newest first: (journal id, line shown).
    pub past_rows: Vec<(String, String)>,
    /// Values of the current frame's variables at the end of source lines.
    pub inline_values: bool,
    /// The exception's traceback over the screen.
    pub traceback: Option<crate::tui::panes::traceback::Traceback>,
    /// Number formats picked per variable, for this session.
    pub formats: crate::tui::number_format::Formats,
    /// One value read whole, over the screen.
    pub viewer: Option<crate::tui::viewer::Viewer>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Prompt {
    Evaluate,
    AddWatch,
    Note,
    /// Editing a field of the breakpoint with this id.
    Condition(u64),
    HitCount(u64),
    LogMessage(u64),
    Search,
    /// Replacing the watch with this expression.
    EditWatch(usize),
    /// A new value for the variable at `UiState::value_path`.
    SetValue,
    /// Where the memory view looks: a pointer, a value or an address.
    Memory,
    /// An index to show in the container at `UiState::value_path`.
    GoToIndex,
    /// Text to find in the value viewer.
    ViewerSearch,
}

impl Default for UiState {
    fn default() -> Self {
        UiState {
            focus: Focus::Source,
            file: None,
            cursor: 1,
            scroll: 1,
            followed_stop: 0,
            selected_frame: 0,
            selected_var: 0,
            children: Default::default(),
            loading: Default::default(),
            reopening: Default::default(),
            pages: Default::default(),
            frame_locals: None,
            selected_watch: 0,
            selected_breakpoint: 0,
            output: vec![],
            output_scroll_from_end: 0,
            output_total: 0,
            output_first: 0,
            console: vec![],
            input: Default::default(),
            typing: None,
            typing_to_program: false,
            history_pos: None,
            message: None,
            value_path: String::new(),
            sessions: vec![],
            show_help: false,
            help_scroll: 0,
            messages: vec![],
            show_messages: false,
            hscroll: 0,
            approve_required: false,
            approval: None,
            zoomed: None,
            palette: None,
            picker: None,
            files: vec![],
            workspace: PathBuf::new(),
            last_search: String::new(),
            tick: 0,
            busy: false,
            waiting: false,
            activity: vec![],
            threads: vec![],
            endpoint: None,
            agent_joined: false,
            native: Default::default(),
            scopes: vec![],
            inline_values: true,
            traceback: None,
            history: None,
            history_of: None,
            past_list: None,
            past_rows: vec![],
            formats: Default::default(),
            viewer: None,
        }
    }
}

impl UiState {
    /// The locals the variables pane shows: the selected frame's.
    pub fn locals<'a>(
        &'a self,
        stop: &'a crate::session::types::StopInfo,
    ) -> &'a [crate::session::types::Var] {
        match &self.frame_locals {
            Some((i, vars)) if *i == self.selected_frame => vars,
            _ if self.selected_frame == 0 => &stop.locals,
            // Still being read: show nothing rather than another frame's.
            _ => &[],
        }
    }

    /// Adds a line to the console, which keeps the last `CONSOLE_KEEP`.
    pub fn push_console(&mut self, entry: ConsoleEntry) {
        self.console.push(entry);
        let over = self.console.len().saturating_sub(CONSOLE_KEEP);
        self.console.drain(..over);
    }

    /// Adds text to the lines on screen (the app fills them from the
    /// session's buffer; render tests fill them directly).
    pub fn push_output(&mut self, stream: Stream, text: &str) {
        for piece in text.split_inclusive('\n') {
            let continues = self
                .output
                .last()
                .is_some_and(|(s, l)| *s == stream && !l.ends_with('\n'));
            if continues {
                if let Some((_, l)) = self.output.last_mut() {
                    l.push_str(piece);
                }
            } else {
                self.output.push((stream, piece.to_string()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_console_keeps_its_last_lines_only() {
        let mut ui = UiState::default();
        for i in 0..CONSOLE_KEEP + 25 {
            ui.push_console(ConsoleEntry {
                input: Some(format!("x{i}")),
                output: Ok(i.to_string()),
            });
        }
        assert_eq!(ui.console.len(), CONSOLE_KEEP);
        assert_eq!(ui.console[0].input.as_deref(), Some("x25"));
        let last = CONSOLE_KEEP + 24;
        assert_eq!(ui.console[CONSOLE_KEEP - 1].output, Ok(last.to_string()));
    }
}
