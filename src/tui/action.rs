//! Keys map to actions; actions are data, so the keymap can be too.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

/// The default keymap: VS Code's function keys, and letters for terminals
/// that eat them.
pub const DEFAULT_KEYS: &[(&str, Action, &str)] = &[
    ("F5 c", Action::Continue, "continue"),
    ("F10 n", Action::StepOver, "step over"),
    ("F11 s", Action::StepInto, "step into"),
    ("S-F11 f", Action::StepOut, "step out"),
    ("F9 b", Action::ToggleBreakpoint, "toggle breakpoint"),
    ("r", Action::RunToCursor, "run to cursor"),
    ("p", Action::Pause, "pause"),
    ("R", Action::Restart, "restart"),
    ("e :", Action::Evaluate, "evaluate"),
    ("w", Action::AddWatch, "add watch"),
    ("x", Action::RemoveWatch, "remove watch"),
    ("T", Action::ToggleControl, "take / hand back control"),
    ("a", Action::Note, "note for the agent"),
    ("Tab", Action::FocusNext, "next pane"),
    ("S-Tab", Action::FocusPrev, "previous pane"),
    ("k Up", Action::Up, "up"),
    ("j Down", Action::Down, "down"),
    ("PgUp", Action::PageUp, "page up"),
    ("PgDn", Action::PageDown, "page down"),
    ("g Home", Action::Top, "top"),
    ("G End", Action::Bottom, "bottom"),
    ("?", Action::Help, "help"),
    ("q", Action::Quit, "quit"),
];

fn key_name(k: &KeyEvent) -> Option<String> {
    let shift = k.modifiers.contains(KeyModifiers::SHIFT);
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
        KeyCode::Char(c) => c.to_string(),
        _ => return None,
    })
}

pub fn action_for(k: &KeyEvent) -> Option<Action> {
    if k.modifiers.contains(KeyModifiers::CONTROL) {
        return (k.code == KeyCode::Char('c')).then_some(Action::Quit);
    }
    let name = key_name(k)?;
    DEFAULT_KEYS
        .iter()
        .find(|(keys, _, _)| keys.split(' ').any(|x| x == name))
        .map(|(_, a, _)| *a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vs_code_keys_and_letters() {
        let k = |code, m| KeyEvent::new(code, m);
        assert_eq!(
            action_for(&k(KeyCode::F(10), KeyModifiers::NONE)),
            Some(Action::StepOver)
        );
        assert_eq!(
            action_for(&k(KeyCode::Char('n'), KeyModifiers::NONE)),
            Some(Action::StepOver)
        );
        assert_eq!(
            action_for(&k(KeyCode::F(11), KeyModifiers::SHIFT)),
            Some(Action::StepOut)
        );
        assert_eq!(
            action_for(&k(KeyCode::F(11), KeyModifiers::NONE)),
            Some(Action::StepInto)
        );
        assert_eq!(
            action_for(&k(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Action::Quit)
        );
        assert_eq!(action_for(&k(KeyCode::Char('z'), KeyModifiers::NONE)), None);
    }
}
