//! The files a user writes: .vscode/launch.json and tasks.json, keys.toml, a theme,
//! config.toml, and the workspace state the TUI saves. The input's first
//! line names the kind (`launch.json`); any other first line picks one.

use std::time::Duration;

use pairdbg::session::{launch_json, tasks_json};
use pairdbg::tui::action::Keymap;
use pairdbg::tui::state::UiState;
use pairdbg::tui::theme::Theme;
use pairdbg::tui::workspace_state::WorkspaceState;

use super::workspace;

const DEFAULT_KEYMAP: &str = include_str!("../../assets/keymap.toml");
const KINDS: [&str; 6] = [
    "launch.json",
    "tasks.json",
    "keys.toml",
    "theme.toml",
    "config.toml",
    "workspace-state.json",
];

pub fn run(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let kind = KINDS
        .iter()
        .find(|k| **k == first.trim())
        .copied()
        .unwrap_or(KINDS[usize::from(data.first().copied().unwrap_or(0)) % KINDS.len()]);
    match kind {
        "launch.json" => launch(rest),
        "tasks.json" => tasks(rest),
        "keys.toml" => {
            if let Ok(keymap) = Keymap::parse(DEFAULT_KEYMAP, Some(rest)) {
                assert!(!keymap.bindings.is_empty());
            }
        }
        "theme.toml" => {
            let _ = Theme::from_toml(rest);
        }
        "config.toml" => {
            if let Ok(table) = toml::from_str::<toml::Table>(rest) {
                let _ = pairdbg::cli::max_sessions_setting(&table);
                if let Some(name) = table.get("theme").and_then(|t| t.as_str()) {
                    let _ = Theme::load(name);
                }
            }
        }
        _ => {
            if let Ok(state) = serde_json::from_str::<WorkspaceState>(rest) {
                state.restore_layout(&mut UiState::default());
                if let Some(mut config) = launch_config() {
                    state.restore_into(&mut config);
                }
            }
        }
    }
}

/// A launch configuration from the file, checked as a launch is.
fn launch(text: &str) {
    let ws = workspace::workspace();
    for name in [None, Some("Run")] {
        if let Ok(Some(request)) = launch_json::from_text(text, &ws.root, name, Some("prog.py")) {
            let _ = request.validate(&ws, Duration::from_secs(5));
        }
    }
}

/// Every task of the file as a preLaunchTask, and one it lacks: each
/// gives its commands within the limits or an error.
fn tasks(text: &str) {
    let ws = workspace::workspace();
    let labels: Vec<String> =
        jsonc_parser::parse_to_serde_value::<serde_json::Value>(text, &Default::default())
            .ok()
            .and_then(|doc| {
                doc.get("tasks")?.as_array().map(|tasks| {
                    tasks
                        .iter()
                        .filter_map(|t| t.get("label")?.as_str().map(str::to_string))
                        .take(50)
                        .collect()
                })
            })
            .unwrap_or_default();
    for label in labels.iter().map(String::as_str).chain(["build"]) {
        if let Ok(commands) = tasks_json::from_text(text, &ws.root, label, Some("prog.py")) {
            assert!(commands.len() <= tasks_json::MAX_TASKS_RUN);
        }
    }
}

fn launch_config() -> Option<pairdbg::session::LaunchConfig> {
    pairdbg::session::LaunchRequest {
        program: Some("prog.py".into()),
        ..Default::default()
    }
    .validate(&workspace::workspace(), Duration::from_secs(5))
    .ok()
}
