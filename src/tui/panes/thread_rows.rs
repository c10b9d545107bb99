//! The threads above the call stack: one row for a single process, else a
//! row per process (root first) with its threads after its name, so each
//! worker stays readable in a narrow pane. Drawing and the mouse share
//! this layout, so a click lands on the thread drawn under it.

use unicode_width::UnicodeWidthStr;

use crate::tui::state::UiState;

/// A thread as (process number, thread id): ids repeat across processes.
pub type ThreadKey = (Option<u32>, i64);

const THREADS_PREFIX: &str = "threads: ";
const SEP: &str = " · ";
/// Past this many processes the rest fold into a `+N more` row.
const MAX_ROWS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    Dim,
    /// The thread (or process) the stack shows.
    Shown,
    Process,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seg {
    pub text: String,
    pub thread: Option<ThreadKey>,
    pub look: Look,
}

fn seg(text: impl Into<String>, thread: Option<ThreadKey>, look: Look) -> Seg {
    Seg {
        text: text.into(),
        thread,
        look,
    }
}

/// The processes in `ui.threads`, in listing order, each with its threads.
fn processes(ui: &UiState) -> Vec<(Option<u32>, Vec<&crate::session::types::ThreadRow>)> {
    let mut out: Vec<(Option<u32>, Vec<_>)> = vec![];
    for t in &ui.threads {
        match out.iter_mut().find(|(c, _)| *c == t.child) {
            Some((_, rows)) => rows.push(t),
            None => out.push((t.child, vec![t])),
        }
    }
    out
}

/// Whether the pane, `height` rows inside its border, gives rows to threads.
pub fn shows_threads(ui: &UiState, height: u16) -> bool {
    ui.threads.len() > 1 && height > 2
}

/// How many rows the threads take in a pane `height` rows high: the frames
/// keep at least two.
pub fn rows_used(ui: &UiState, height: u16) -> usize {
    if !shows_threads(ui, height) {
        return 0;
    }
    let n = processes(ui).len();
    if n <= 1 {
        return 1;
    }
    n.min(budget(height))
}

fn budget(height: u16) -> usize {
    (height as usize).saturating_sub(2).clamp(1, MAX_ROWS)
}

fn thread_segs(
    out: &mut Vec<Seg>,
    threads: &[&crate::session::types::ThreadRow],
    shown: ThreadKey,
    with_process: bool,
) {
    for (i, t) in threads.iter().enumerate() {
        if i > 0 {
            out.push(seg(SEP, None, Look::Dim));
        }
        let name = match (&t.process, with_process) {
            (Some(p), true) => format!("{} in {p}", t.name),
            _ => t.name.clone(),
        };
        let key = (t.child, t.id);
        let (label, look) = if key == shown {
            (format!("[{} {name}]", t.id), Look::Shown)
        } else {
            (format!("{} {name}", t.id), Look::Dim)
        };
        out.push(seg(label, Some(key), look));
    }
}

/// The threads rows for a pane `height` rows high, uncut.
pub fn lines(ui: &UiState, shown: ThreadKey, height: u16) -> Vec<Vec<Seg>> {
    let used = rows_used(ui, height);
    if used == 0 {
        return vec![];
    }
    let procs = processes(ui);
    if procs.len() <= 1 {
        let mut row = vec![seg(THREADS_PREFIX, None, Look::Dim)];
        let all: Vec<_> = ui.threads.iter().collect();
        thread_segs(&mut row, &all, shown, true);
        return vec![row];
    }
    // The shown process always keeps its row; a `+N more` row takes the
    // last one when they do not all fit.
    let folded = procs.len() > used && used >= 2;
    let slots = if folded { used - 1 } else { used };
    let mut picked: Vec<usize> = (0..slots).collect();
    if let Some(at) = procs.iter().position(|(c, _)| *c == shown.0)
        && !picked.contains(&at)
    {
        picked[slots - 1] = at;
    }
    let mut out: Vec<Vec<Seg>> = picked
        .iter()
        .map(|&i| {
            let (child, threads) = &procs[i];
            let here = *child == shown.0;
            let name = threads[0]
                .process
                .clone()
                .unwrap_or_else(|| format!("process {}", child.unwrap_or(0)));
            let mut row = vec![
                seg(if here { "▶ " } else { "  " }, None, Look::Shown),
                seg(
                    format!("{name}: "),
                    None,
                    if here { Look::Shown } else { Look::Process },
                ),
            ];
            thread_segs(&mut row, threads, shown, false);
            row
        })
        .collect();
    if folded {
        let more = procs.len() - slots;
        out.push(vec![seg(
            format!(
                "  +{more} more process{}",
                if more == 1 { "" } else { "es" }
            ),
            None,
            Look::Dim,
        )]);
    }
    out
}

/// The thread drawn at `row`, `column` of the threads rows (0, 0 = the
/// first cell inside the border) of a pane `width` × `height` inside.
pub fn thread_at(
    ui: &UiState,
    shown: ThreadKey,
    (width, height): (usize, u16),
    row: usize,
    column: usize,
) -> Option<ThreadKey> {
    let line = lines(ui, shown, height).into_iter().nth(row)?;
    let total: usize = line.iter().map(|s| s.text.width()).sum();
    // A cut row ends in `…`, which names no thread.
    if total > width && column + 1 >= width {
        return None;
    }
    let mut x = 0;
    for s in line {
        let w = s.text.width();
        if column >= x && column < x + w {
            return s.thread;
        }
        x += w;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::types::ThreadRow;

    fn row(child: Option<u32>, process: Option<&str>, id: i64, name: &str) -> ThreadRow {
        ThreadRow {
            child,
            process: process.map(str::to_string),
            id,
            name: name.into(),
        }
    }

    fn text(lines: &[Vec<Seg>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.iter().map(|s| s.text.as_str()).collect())
            .collect()
    }

    #[test]
    fn a_click_on_the_threads_row_finds_the_thread_under_it() {
        let ui = UiState {
            threads: vec![
                row(None, None, 1, "MainThread"),
                row(None, None, 7, "worker"),
            ],
            ..Default::default()
        };
        let t = |id| Some((None, id));
        let shown = (None, 1);
        let at = |c| thread_at(&ui, shown, (80, 5), 0, c);
        // "threads: [1 MainThread] · 7 worker"
        assert_eq!(at(0), None, "the prefix");
        assert_eq!(at(9), t(1));
        assert_eq!(at(22), t(1));
        assert_eq!(at(23), None, "the separator");
        assert_eq!(at(26), t(7));
        assert_eq!(at(33), t(7));
        assert_eq!(at(34), None);
        assert_eq!(thread_at(&ui, shown, (80, 5), 1, 9), None, "one row");
        assert!(shows_threads(&ui, 3) && !shows_threads(&ui, 2));
    }

    fn workers(n: u32) -> UiState {
        let mut threads = vec![row(Some(0), Some("main (pid 10)"), 1, "MainThread")];
        for c in 1..=n {
            let name = format!("Subprocess {}", 10 + c);
            threads.push(row(Some(c), Some(&name), 1, "MainThread"));
            threads.push(row(Some(c), Some(&name), 2, "Thread-1"));
        }
        UiState {
            threads,
            ..Default::default()
        }
    }

    #[test]
    fn each_process_gets_a_row_and_the_shown_one_is_marked() {
        let ui = workers(2);
        assert_eq!(
            text(&lines(&ui, (Some(2), 1), 6)),
            [
                "  main (pid 10): 1 MainThread",
                "  Subprocess 11: 1 MainThread · 2 Thread-1",
                "▶ Subprocess 12: [1 MainThread] · 2 Thread-1",
            ]
        );
        // The second worker's second thread, not the first's.
        let at = |row, c| thread_at(&ui, (Some(2), 1), (46, 6), row, c);
        assert_eq!(at(1, 30), None, "the separator");
        assert_eq!(at(1, 33), Some((Some(1), 2)));
        assert_eq!(at(2, 20), Some((Some(2), 1)));
        assert_eq!(at(2, 0), None, "the mark");
        assert_eq!(at(3, 20), None, "past the rows");
        // A pane too narrow for the whole row: its last cell is the cut.
        let narrow = |c| thread_at(&ui, (Some(2), 1), (35, 6), 1, c);
        assert_eq!(narrow(33), Some((Some(1), 2)));
        assert_eq!(narrow(34), None);
    }

    #[test]
    fn many_processes_fold_into_a_more_row_keeping_the_shown_one() {
        let ui = workers(6);
        let rows = text(&lines(&ui, (Some(5), 1), 8));
        assert_eq!(rows.len(), 4, "{rows:?}");
        assert!(rows[0].starts_with("  main (pid 10)"), "{rows:?}");
        assert!(rows[2].starts_with("▶ Subprocess 15"), "{rows:?}");
        assert_eq!(rows[3], "  +4 more processes");
        // A short pane keeps two rows for the frames.
        assert_eq!(rows_used(&ui, 4), 2);
        assert_eq!(text(&lines(&ui, (Some(0), 1), 4))[1], "  +6 more processes");
        assert_eq!(rows_used(&ui, 3), 1);
        assert!(text(&lines(&ui, (Some(3), 1), 3))[0].starts_with("▶ Subprocess 13"));
    }
}
