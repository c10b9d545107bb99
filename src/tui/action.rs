//! Keys map to actions through a keymap that is data: assets/keymap.toml,
//! overridden by the user's ~/.config/pairdbg/keys.toml.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Continue,
    StepOver,
    StepInto,
    StepOut,
    ToggleBreakpoint,
    RunToCursor,
    Pause,
    Restart,
    Quit,
    FocusNext,
    FocusPrev,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    Evaluate,
    AddWatch,
    RemoveWatch,
    Help,
    ToggleControl,
    Note,
    Zoom,
    Palette,
    ToggleEnabled,
    DeleteBreakpoint,
    EditCondition,
    EditHitCount,
    EditLogMessage,
    Expand,
    Collapse,
    CopyValue,
    Search,
    OpenFile,
    EditWatch,
    NextThread,
    NextSession,
    SetValue,
    ToggleApproval,
    Disassembly,
    Memory,
    CloseView,
    Interrupt,
    GoToBreakpoint,
    Messages,
    GoToIndex,
    ScrollLeft,
    ScrollRight,
    InlineValues,
    Traceback,
    TypeToProgram,
    StopHistory,
    HistoryBack,
    HistoryForward,
    PastSessions,
    ViewValue,
    CycleFormat,
    WatchWrites,
    Record,
    BackOver,
    BackInto,
    BackOut,
    ContinueBack,
}

impl Action {
    /// The pane an action belongs to; None for actions that work anywhere.
    /// One key may serve several panes (Enter expands a value, edits a watch).
    pub fn pane(self) -> Option<crate::tui::state::Focus> {
        use crate::tui::state::Focus;
        match self {
            Action::Expand | Action::Collapse | Action::CopyValue | Action::SetValue => {
                Some(Focus::Variables)
            }
            Action::EditWatch => Some(Focus::Watches),
            Action::GoToIndex => Some(Focus::Variables),
            Action::ScrollLeft | Action::ScrollRight => Some(Focus::Source),
            Action::GoToBreakpoint => Some(Focus::Breakpoints),
            Action::TypeToProgram => Some(Focus::Output),
            Action::ToggleEnabled
            | Action::DeleteBreakpoint
            | Action::EditCondition
            | Action::EditHitCount
            | Action::EditLogMessage => Some(Focus::Breakpoints),
            _ => None,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Action::Continue => "continue",
            Action::StepOver => "step over",
            Action::StepInto => "step into",
            Action::StepOut => "step out",
            Action::ToggleBreakpoint => "toggle breakpoint",
            Action::RunToCursor => "run to cursor",
            Action::Pause => "pause",
            Action::Restart => "restart",
            Action::Quit => "quit",
            Action::FocusNext => "next pane",
            Action::FocusPrev => "previous pane",
            Action::Up => "up",
            Action::Down => "down",
            Action::PageUp => "page up",
            Action::PageDown => "page down",
            Action::Top => "top",
            Action::Bottom => "bottom",
            Action::Evaluate => "evaluate",
            Action::AddWatch => "add watch",
            Action::RemoveWatch => "remove watch",
            Action::Help => "help",
            Action::ToggleControl => "take / hand back control",
            Action::Note => "note for the agent",
            Action::Zoom => "zoom the pane",
            Action::Palette => "command palette",
            Action::ToggleEnabled => "breakpoint on / off",
            Action::DeleteBreakpoint => "delete breakpoint",
            Action::EditCondition => "edit condition",
            Action::EditHitCount => "edit hit count",
            Action::EditLogMessage => "edit log message",
            Action::Expand => "expand / collapse a value",
            Action::Collapse => "collapse a value",
            Action::CopyValue => "copy the value",
            Action::Search => "search the source (empty: again)",
            Action::OpenFile => "open a workspace file",
            Action::EditWatch => "edit the watch",
            Action::NextThread => "show the next thread",
            Action::NextSession => "show the next session",
            Action::SetValue => "set the value",
            Action::ToggleApproval => "approve agent side effects",
            Action::Disassembly => "disassembly (steps go by instruction)",
            Action::Memory => "memory at a pointer or address",
            Action::CloseView => "back to the source",
            Action::Interrupt => "pause a running program",
            Action::GoToBreakpoint => "go to the breakpoint's line",
            Action::Messages => "messages: the recent ones",
            Action::GoToIndex => "go to an index of a container",
            Action::ScrollLeft => "scroll the source left",
            Action::ScrollRight => "scroll the source right",
            Action::InlineValues => "values in the source: on / off",
            Action::Traceback => "the exception's traceback",
            Action::TypeToProgram => "type into the program (Esc stops)",
            Action::StopHistory => "earlier stops, read-only (Esc: now)",
            Action::HistoryBack => "the stop before, read-only",
            Action::HistoryForward => "the stop after, read-only",
            Action::PastSessions => "past sessions' stops, read-only",
            Action::ViewValue => "see the whole value (/ finds)",
            Action::CycleFormat => "number format: hex, binary, char",
            Action::WatchWrites => "stop when the variable is written",
            Action::Record => "record on / off (gdb), to go back",
            Action::BackOver => "step back over",
            Action::BackInto => "step back into",
            Action::BackOut => "step back out",
            Action::ContinueBack => "continue backwards",
        }
    }
}

const DEFAULT_KEYMAP: &str = include_str!("../../assets/keymap.toml");

/// Keys to actions, from the bundled keymap and the user's overrides.
#[derive(Debug, Clone)]
pub struct Keymap {
    /// In the bundled file's order, for the help overlay.
    pub bindings: Vec<(Action, Vec<String>)>,
}

impl Default for Keymap {
    fn default() -> Self {
        Keymap::parse(DEFAULT_KEYMAP, None).unwrap_or(Keymap { bindings: vec![] })
    }
}

impl Keymap {
    /// The default keymap with `overrides` (TOML) applied on top.
    pub fn parse(default: &str, overrides: Option<&str>) -> Result<Keymap, String> {
        let mut bindings = vec![];
        for line in default.lines() {
            let Some((name, _)) = line.split_once('=') else {
                continue;
            };
            if line.trim_start().starts_with('#') {
                continue;
            }
            let name = name.trim();
            let table: toml::Table = toml::from_str(line).map_err(|e| format!("keymap: {e}"))?;
            let action: Action = toml::Value::String(name.to_string())
                .try_into()
                .map_err(|_| format!("keymap: {name:?} is not an action"))?;
            let keys: Vec<String> = table[name]
                .clone()
                .try_into()
                .map_err(|e| format!("keymap {name}: {e}"))?;
            bindings.push((action, keys));
        }
        if let Some(text) = overrides {
            let table: std::collections::BTreeMap<String, Vec<String>> =
                toml::from_str(text).map_err(|e| format!("keys.toml: {e}"))?;
            for (name, keys) in table {
                let action: Action = toml::Value::String(name.clone())
                    .try_into()
                    .map_err(|_| format!("keys.toml: {name:?} is not an action"))?;
                match bindings.iter_mut().find(|(a, _)| *a == action) {
                    Some(b) => b.1 = keys,
                    None => bindings.push((action, keys)),
                }
            }
        }
        Ok(Keymap { bindings })
    }

    /// The bundled keymap with ~/.config/pairdbg/keys.toml, if any.
    pub fn load() -> Result<Keymap, String> {
        let user = crate::paths::config_dir().map(|d| d.join("keys.toml"));
        let text = user.and_then(|p| std::fs::read_to_string(p).ok());
        Keymap::parse(DEFAULT_KEYMAP, text.as_deref())
    }

    /// The action a key means in the focused pane: that pane's own
    /// binding first, then one that works anywhere.
    pub fn action_for_in(&self, k: &KeyEvent, focus: crate::tui::state::Focus) -> Option<Action> {
        let name = key_name(k)?;
        let bound: Vec<Action> = self
            .bindings
            .iter()
            .filter(|(_, keys)| keys.contains(&name))
            .map(|(a, _)| *a)
            .collect();
        bound
            .iter()
            .copied()
            .find(|a| a.pane() == Some(focus))
            .or_else(|| bound.iter().copied().find(|a| a.pane().is_none()))
    }

    /// Whether `k` is one of `action`'s keys.
    pub fn binds(&self, action: Action, k: &KeyEvent) -> bool {
        let Some(name) = key_name(k) else {
            return false;
        };
        self.bindings
            .iter()
            .any(|(a, keys)| *a == action && keys.contains(&name))
    }

    pub fn action_for(&self, k: &KeyEvent) -> Option<Action> {
        self.action_for_in(k, crate::tui::state::Focus::Source)
    }
}

fn key_name(k: &KeyEvent) -> Option<String> {
    let shift = k.modifiers.contains(KeyModifiers::SHIFT);
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return match k.code {
            KeyCode::Char(c) => Some(format!("C-{c}")),
            _ => None,
        };
    }
    Some(match k.code {
        KeyCode::F(n) if shift => format!("S-F{n}"),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::BackTab => "S-Tab".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::Up => "Up".into(),
        KeyCode::Down => "Down".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Delete => "Delete".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Left => "Left".into(),
        KeyCode::Right => "Right".into(),
        KeyCode::Char(c) => c.to_string(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn vs_code_keys_and_letters() {
        let m = Keymap::default();
        let none = KeyModifiers::NONE;
        assert_eq!(
            m.action_for(&k(KeyCode::F(10), none)),
            Some(Action::StepOver)
        );
        assert_eq!(
            m.action_for(&k(KeyCode::Char('n'), none)),
            Some(Action::StepOver)
        );
        assert_eq!(
            m.action_for(&k(KeyCode::F(11), KeyModifiers::SHIFT)),
            Some(Action::StepOut)
        );
        assert_eq!(
            m.action_for(&k(KeyCode::F(11), none)),
            Some(Action::StepInto)
        );
        assert_eq!(
            m.action_for(&k(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Interrupt)
        );
        assert_eq!(m.action_for(&k(KeyCode::Char('Q'), none)), None);
        assert!(m.bindings.len() >= 24, "every action has keys");
    }

    #[test]
    fn user_overrides_replace_an_actions_keys() {
        let m = Keymap::parse(DEFAULT_KEYMAP, Some("step_over = [\"F8\"]\n")).unwrap();
        assert_eq!(
            m.action_for(&k(KeyCode::F(8), KeyModifiers::NONE)),
            Some(Action::StepOver)
        );
        assert_eq!(
            m.action_for(&k(KeyCode::Char('n'), KeyModifiers::NONE)),
            None
        );
        let e = Keymap::parse(DEFAULT_KEYMAP, Some("fly = [\"x\"]\n")).unwrap_err();
        assert!(e.contains("\"fly\" is not an action"), "{e}");
    }

    #[test]
    fn one_key_serves_several_panes() {
        use crate::tui::state::Focus;
        let m = Keymap::default();
        let enter = k(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(
            m.action_for_in(&enter, Focus::Variables),
            Some(Action::Expand)
        );
        assert_eq!(
            m.action_for_in(&enter, Focus::Watches),
            Some(Action::EditWatch)
        );
        assert_eq!(m.action_for_in(&enter, Focus::Source), None);
        let h = k(KeyCode::Char('h'), KeyModifiers::NONE);
        assert_eq!(
            m.action_for_in(&h, Focus::Breakpoints),
            Some(Action::EditHitCount)
        );
        assert_eq!(m.action_for_in(&h, Focus::Source), None);
    }
}
