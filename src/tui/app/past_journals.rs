//! The workspace's past sessions, from their journals: a list to pick one
//! from, and its stops opened read-only in the history view that `H` uses
//! for the live session (source, stack and locals at each stop).

use std::path::Path;
use std::sync::Arc;

use crossterm::event::KeyEvent;

use super::prompts::{ListKey, list_key};
use super::stop_history::StopHistory;
use super::{App, UiEvent};
use crate::session::journal::{StopRecord, journals_dir, query};
use crate::session::types::{Frame, RunState, Snapshot, StopInfo, Var};

impl App {
    /// Lists the workspace's journals, newest first, to open one. Read
    /// off the UI's task: fifty full journals take a moment.
    pub(super) fn open_past_list(&mut self) {
        let ws = self.ui.workspace.clone();
        let tx = self.tx.clone();
        self.ui.message = Some("reading the journals…".into());
        tokio::task::spawn_blocking(move || {
            let rows = past_rows(&ws);
            let _ = tx.send(UiEvent::Update(Box::new(move |app: &mut App| {
                app.ui.message = None;
                match rows {
                    Ok(rows) => {
                        app.ui.past_rows = rows;
                        app.ui.past_list = Some((String::new(), 0));
                    }
                    Err(e) => app.ui.message = Some(e),
                }
            })));
        });
    }

    pub(super) fn on_past_list_key(&mut self, k: KeyEvent) {
        let Some((query, selected)) = self.ui.past_list.as_mut() else {
            return;
        };
        let n = past_matches(&self.ui.past_rows, query).len();
        match list_key(query, selected, n, k.code) {
            ListKey::Close => self.ui.past_list = None,
            ListKey::Choose(i) => {
                let chosen = past_matches(&self.ui.past_rows, query)
                    .get(i)
                    .map(|(id, _)| id.clone());
                self.ui.past_list = None;
                if let Some(id) = chosen {
                    self.open_past(id);
                }
            }
            ListKey::Edited => {}
        }
    }

    fn open_past(&mut self, id: String) {
        let ws = self.ui.workspace.clone();
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let opened = past_stops(&ws, &id);
            let _ = tx.send(UiEvent::Update(Box::new(
                move |app: &mut App| match opened {
                    Ok(history) => app.past = Some(history),
                    Err(e) => app.ui.message = Some(e),
                },
            )));
        });
    }
}

/// The workspace's journals, newest first: (id, the line shown).
fn past_rows(ws: &Path) -> Result<Vec<(String, String)>, String> {
    let dir = journals_dir().ok_or("no state directory: set HOME or XDG_STATE_HOME")?;
    let filter = query::Filter {
        workspace: Some(ws.display().to_string()),
        ..Default::default()
    };
    let rows: Vec<(String, String)> = query::list(&dir, &filter)
        .iter()
        .rev()
        .map(|j| {
            let s = j.summary();
            let run = std::iter::once(s.program.as_str())
                .chain(s.args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            let label = format!(
                "{}  {run}  ·  {}  ·  {}",
                s.started,
                s.outcome_text,
                query::count(s.stops, "stop")
            );
            (s.id, label)
        })
        .collect();
    if rows.is_empty() {
        return Err(format!(
            "no journals of this workspace yet in {}",
            dir.display()
        ));
    }
    Ok(rows)
}

/// The stops of the journal `id`, to browse.
fn past_stops(ws: &Path, id: &str) -> Result<StopHistory, String> {
    let dir = journals_dir().ok_or("no state directory: set HOME or XDG_STATE_HOME")?;
    let j = query::resolve(&dir, ws, "journal", id)?;
    let s = j.summary();
    let stops: Vec<Arc<Snapshot>> = query::stops_of(&j.records)
        .iter()
        .map(|stop| Arc::new(snapshot_of(&s, stop, ws)))
        .collect();
    if stops.is_empty() {
        return Err(format!("the journal {} holds no stops", s.id));
    }
    let label = format!("past session {} of {}", s.session, s.started);
    Ok(StopHistory::of_past(stops, label))
}

/// The rows holding every word of `query`.
pub fn past_matches<'a>(rows: &'a [(String, String)], query: &str) -> Vec<&'a (String, String)> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    rows.iter()
        .filter(|(_, label)| {
            let label = label.to_lowercase();
            words.iter().all(|w| label.contains(w))
        })
        .collect()
}

/// A recorded stop as the history view draws one: its frames with their
/// files in the workspace, and the top frame's locals as they were shown.
fn snapshot_of(s: &query::Summary, stop: &StopRecord, ws: &Path) -> Snapshot {
    let mut snap = Snapshot::new(s.session.clone(), s.program.clone(), ws.to_path_buf());
    snap.state = RunState::Stopped;
    snap.stop_seq = stop.seq;
    let frames: Vec<Frame> = stop
        .frames
        .iter()
        .enumerate()
        .map(|(i, f)| Frame {
            id: i as i64,
            name: f.name.clone(),
            file: f.file.as_deref().map(|p| ws.join(p)),
            line: f.line,
            external: false,
            params: None,
            pc: None,
        })
        .collect();
    let locals = stop
        .locals
        .iter()
        .map(|v| Var {
            name: v.name.clone(),
            value: v.value.clone(),
            type_name: v.type_name.clone(),
            ..Default::default()
        })
        .collect();
    snap.stop = Some(StopInfo {
        reason: stop.reason.clone(),
        description: stop.exception.clone().or_else(|| stop.description.clone()),
        thread_id: 1,
        total_frames: frames.len(),
        frames,
        locals,
        locals_reference: 0,
        exception: None,
        thread_note: None,
        source: None,
        files: vec![],
        callers: vec![],
        hit: None,
        condition_error: None,
        process: None,
        child: None,
        connection: 0,
    });
    snap
}
