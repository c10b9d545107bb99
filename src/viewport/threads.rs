//! The threads listing: the program's threads, grouped under their process
//! when the session has children, with the shown one marked.

use crate::session::types::{StopInfo, ThreadRow};

pub fn listing(rows: &[ThreadRow], stop: Option<&StopInfo>) -> String {
    let shown = stop.map(|s| (s.child, s.thread_id));
    let mut out = vec![];
    let mut process: Option<(Option<u32>, Option<&str>)> = None;
    for t in rows {
        let here = (t.child, t.process.as_deref());
        if let (Some(child), Some(name)) = here
            && process != Some(here)
        {
            out.push(format!("  process {child}: {name}"));
        }
        process = Some(here);
        let indent = if t.child.is_some() { "  " } else { "" };
        let mark = if shown == Some((t.child, t.id)) {
            "→"
        } else {
            " "
        };
        out.push(format!("  {indent}{mark} {}: {}", t.id, t.name));
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(child: Option<u32>, process: Option<&str>, id: i64, name: &str) -> ThreadRow {
        ThreadRow {
            child,
            process: process.map(str::to_string),
            id,
            name: name.into(),
        }
    }

    #[test]
    fn one_process_lists_its_threads_plainly() {
        let rows = [
            row(None, None, 1, "MainThread"),
            row(None, None, 2, "worker"),
        ];
        assert_eq!(listing(&rows, None), "    1: MainThread\n    2: worker");
    }

    #[test]
    fn children_group_their_threads_under_their_process() {
        let rows = [
            row(Some(0), Some("main"), 1, "MainThread"),
            row(Some(1), Some("Subprocess 7"), 1, "MainThread"),
        ];
        assert_eq!(
            listing(&rows, None),
            "  process 0: main\n      1: MainThread\n  process 1: Subprocess 7\n      1: MainThread"
        );
    }
}
