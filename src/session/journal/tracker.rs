//! Turns the stream of snapshots into journal records: what is new since
//! the last one (changes, a stop, notes, breakpoints, the end).

use super::record::{BreakpointRecord, Record, StopRecord};
use super::{StopRenderer, now_ms};
use crate::session::types::{RunState, Snapshot};

#[derive(Default)]
pub struct Tracker {
    /// The newest change recorded, by epoch.
    change_epoch: u64,
    stop_seq: u64,
    notes: usize,
    breakpoints: Option<Vec<BreakpointRecord>>,
    /// The end already recorded: an exit or a failure, once per run.
    ended: Option<RunState>,
}

impl Tracker {
    pub fn records(&mut self, snap: &Snapshot, render: Option<StopRenderer>) -> Vec<Record> {
        let at = now_ms();
        let mut out = vec![];
        for c in snap.changes.iter().filter(|c| c.epoch > self.change_epoch) {
            out.push(Record::Action {
                at,
                epoch: c.epoch,
                origin: c.origin,
                what: c.what.clone(),
            });
        }
        if let Some(c) = snap.changes.last() {
            self.change_epoch = self.change_epoch.max(c.epoch);
        }
        if snap.state == RunState::Stopped
            && snap.stop_seq != self.stop_seq
            && let Some(stop) = &snap.stop
        {
            self.stop_seq = snap.stop_seq;
            let viewport = render.map(|r| r(snap)).unwrap_or_default();
            out.push(Record::Stop(Box::new(StopRecord::new(
                snap, stop, at, viewport,
            ))));
        }
        // A restart starts the notes afresh.
        if snap.notes.len() < self.notes {
            self.notes = 0;
        }
        for n in &snap.notes[self.notes..] {
            out.push(Record::Note {
                at,
                epoch: n.epoch,
                origin: n.origin,
                text: n.text.clone(),
            });
        }
        self.notes = snap.notes.len();
        let list: Vec<BreakpointRecord> = snap
            .breakpoints
            .iter()
            .map(|b| BreakpointRecord::new(snap, b))
            .collect();
        if self.breakpoints.as_ref() != Some(&list) {
            out.push(Record::Breakpoints {
                at,
                epoch: snap.epoch,
                list: list.clone(),
            });
            self.breakpoints = Some(list);
        }
        let end = matches!(snap.state, RunState::Exited | RunState::Error).then_some(snap.state);
        if end != self.ended {
            match (end, &snap.exit, &snap.error) {
                (Some(RunState::Exited), exit, _) => out.push(Record::Exit {
                    at,
                    epoch: snap.epoch,
                    exit_code: exit.as_ref().and_then(|e| e.exit_code),
                    summary: exit.as_ref().map(|e| e.summary.clone()).unwrap_or_default(),
                }),
                (Some(_), _, error) => out.push(Record::Failed {
                    at,
                    epoch: snap.epoch,
                    error: error.clone().unwrap_or_default(),
                }),
                _ => {}
            }
            self.ended = end;
        }
        out
    }
}
