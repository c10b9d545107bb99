//! What the terminal UI remembers per workspace between runs: breakpoints
//! (conditions, hit counts, log messages, disabled ones), exception filters,
//! watches and the layout. Kept under the user's state directory
//! ($XDG_STATE_HOME or ~/.local/state, then pairdbg/workspaces/), in a file
//! named by a hash of the workspace's canonical path; never in the workspace.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::session::types::{Breakpoint, Snapshot};
use crate::session::{BreakpointRequest, LaunchConfig};
use crate::tui::state::{Focus, UiState};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceState {
    /// The workspace this is for, to tell a hash collision from a match.
    pub workspace: PathBuf,
    pub breakpoints: Vec<SavedBreakpoint>,
    /// The exception filters turned on, by the adapter they belong to.
    pub exception_filters: BTreeMap<String, Vec<String>>,
    pub watches: Vec<String>,
    /// The focused pane and the zoomed one, by name.
    pub focus: Option<String>,
    pub zoomed: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SavedBreakpoint {
    pub file: Option<PathBuf>,
    pub line: u64,
    pub function: Option<String>,
    pub condition: Option<String>,
    pub hit_condition: Option<String>,
    pub log_message: Option<String>,
    pub enabled: bool,
}

impl SavedBreakpoint {
    fn of(b: &Breakpoint) -> Self {
        SavedBreakpoint {
            file: b.function.is_none().then(|| b.file.clone()),
            line: b.line,
            function: b.function.clone(),
            condition: b.condition.clone(),
            hit_condition: b.hit_condition.clone(),
            log_message: b.log_message.clone(),
            enabled: b.enabled,
        }
    }

    fn request(&self) -> BreakpointRequest {
        BreakpointRequest {
            file: self
                .file
                .as_ref()
                .map(|f| f.display().to_string())
                .unwrap_or_default(),
            line: self.line as i64,
            function: self.function.clone(),
            condition: self.condition.clone(),
            hit_condition: self.hit_condition.clone(),
            log_message: self.log_message.clone(),
            ..Default::default()
        }
    }
}

/// A hash that stays the same across builds (FNV-1a), so a new pairdbg
/// finds what an old one saved.
fn stable_hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn state_dir() -> Option<PathBuf> {
    crate::paths::state_dir().map(|d| d.join("workspaces"))
}

/// Where a workspace's state is kept.
pub fn file_for(workspace: &Path) -> Option<PathBuf> {
    let canonical = workspace
        .canonicalize()
        .unwrap_or_else(|_| workspace.to_path_buf());
    let hash = stable_hash(canonical.as_os_str().as_encoded_bytes());
    Some(state_dir()?.join(format!("{hash:016x}.json")))
}

/// The state saved for `workspace`, if any (a file that cannot be read or
/// is for another workspace counts as none).
pub fn load(workspace: &Path) -> Option<WorkspaceState> {
    let text = std::fs::read_to_string(file_for(workspace)?).ok()?;
    let state: WorkspaceState = serde_json::from_str(&text).ok()?;
    let canonical = workspace.canonicalize().ok()?;
    (state.workspace == canonical).then_some(state)
}

/// Writes the state atomically, private to the user.
pub fn save(state: &WorkspaceState) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    let path = file_for(&state.workspace)
        .ok_or_else(|| std::io::Error::other("no state directory: set HOME or XDG_STATE_HOME"))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    serde_json::to_writer_pretty(&mut tmp, state).map_err(std::io::Error::other)?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

fn focus_name(f: Focus) -> String {
    format!("{f:?}").to_lowercase()
}

fn focus_named(name: &str) -> Option<Focus> {
    Focus::ORDER.into_iter().find(|f| focus_name(*f) == name)
}

impl WorkspaceState {
    /// What there is to remember now.
    pub fn of(snap: &Snapshot, ui: &UiState, adapter: &str, earlier: &WorkspaceState) -> Self {
        let mut exception_filters = earlier.exception_filters.clone();
        exception_filters.insert(adapter.to_string(), snap.exception_filters.clone());
        WorkspaceState {
            workspace: snap
                .workspace
                .canonicalize()
                .unwrap_or_else(|_| snap.workspace.clone()),
            breakpoints: snap
                .breakpoints
                .iter()
                .filter(|b| !b.temporary)
                .map(SavedBreakpoint::of)
                .collect(),
            exception_filters,
            watches: snap.watches.iter().map(|w| w.expression.clone()).collect(),
            focus: Some(focus_name(ui.focus)),
            zoomed: ui.zoomed.map(focus_name),
        }
    }

    /// Adds the saved breakpoints and exception filters to a launch that
    /// does not name its own. Breakpoints whose file is gone are dropped.
    pub fn restore_into(&self, config: &mut LaunchConfig) {
        let given = !config.breakpoints.is_empty();
        for saved in &self.breakpoints {
            let Ok(spec) = saved.request().validate(&config.workspace) else {
                continue;
            };
            let same = config
                .breakpoints
                .iter()
                .any(|b| b.file == spec.file && b.line == spec.line && b.function == spec.function);
            if same {
                continue;
            }
            if !saved.enabled {
                config.start_disabled.push(config.breakpoints.len());
            }
            config.breakpoints.push(spec);
        }
        // Stopping on entry stood in for a breakpoint; now there are some.
        if !given && self.breakpoints.iter().any(|b| b.enabled) && !config.breakpoints.is_empty() {
            config.stop_on_entry = false;
        }
        if config.exception_filters.is_none() {
            config.exception_filters = self.exception_filters.get(config.adapter.name()).cloned();
        }
    }

    /// Puts back the layout: the focused pane and the zoomed one.
    pub fn restore_layout(&self, ui: &mut UiState) {
        if let Some(f) = self.focus.as_deref().and_then(focus_named) {
            ui.focus = f;
        }
        ui.zoomed = self.zoomed.as_deref().and_then(focus_named);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_is_stable_and_focus_names_round_trip() {
        assert_eq!(stable_hash(b"a"), 0xaf63_dc4c_8601_ec8c);
        for f in Focus::ORDER {
            assert_eq!(focus_named(&focus_name(f)), Some(f));
        }
    }
}
