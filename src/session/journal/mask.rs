//! A record as it may lie on disk: the session's secrets masked, as an
//! agent would read them. The person's TUI reads the live session, not
//! the journal, and still shows the real values.

use super::record::Record;
use crate::session::secrets::{self, Taint, harmless, is_secret_name};

pub fn record(r: &mut Record, taint: &Taint) {
    let text = |s: &mut String| *s = secrets::text(s, taint);
    match r {
        Record::Start { program, args, .. } => {
            text(program);
            args.iter_mut().for_each(text);
        }
        Record::Command { command, .. } => text(command),
        Record::Action { what, .. } => text(what),
        Record::Stop(s) => {
            s.description.iter_mut().for_each(text);
            s.exception.iter_mut().for_each(text);
            for v in &mut s.locals {
                if is_secret_name(&v.name) && !harmless(&v.value) {
                    v.value = secrets::mask(&v.value);
                } else {
                    text(&mut v.value);
                }
            }
            text(&mut s.viewport);
        }
        Record::Note { text: t, .. } => text(t),
        Record::Breakpoints { list, .. } => {
            for b in list {
                b.condition.iter_mut().for_each(text);
            }
        }
        Record::Exit { summary, .. } => text(summary),
        Record::Failed { error, .. } => text(error),
        Record::Output { text: t, .. } => text(t),
        Record::Rotated { .. } | Record::OutputCapped { .. } => {}
    }
}
