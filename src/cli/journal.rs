//! `pairdbg journal`: past sessions read from their journals on disk:
//! list, search, show, diff, and export as a hand-off card.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::session::journal::{self, query};
use crate::session::validate::Workspace;

#[derive(Debug, Subcommand)]
pub enum JournalCmd {
    /// List the workspace's journals, oldest first, with how each ended.
    List {
        #[command(flatten)]
        filter: FilterArgs,
        /// Print JSON rather than lines for a person.
        #[arg(long)]
        json: bool,
    },
    /// Find TEXT (ignoring case) in the journals' stops, values, notes and
    /// output.
    Search {
        /// The text to find.
        #[arg(value_name = "TEXT")]
        text: String,
        #[command(flatten)]
        filter: FilterArgs,
        #[arg(long)]
        json: bool,
    },
    /// Show a journal: every stop with its stack and locals, the notes,
    /// the output and the end; or one stop with `--stop N`.
    Show {
        /// A journal id as `list` prints it, or a session id (`s1`: the
        /// workspace's newest with it).
        #[arg(value_name = "ID")]
        id: String,
        /// Only this stop (from 1), with the viewport the agent read.
        #[arg(long, value_name = "N")]
        stop: Option<usize>,
        #[arg(long)]
        json: bool,
    },
    /// Compare two runs of the same program: the first stop where their
    /// paths part, and the first value that differs at the same step.
    Diff {
        #[arg(value_name = "A")]
        a: String,
        #[arg(value_name = "B")]
        b: String,
        #[arg(long)]
        json: bool,
    },
    /// Print a session's hand-off card as markdown: what ran, the stops in
    /// order with their key values, the notes and the breakpoints.
    Export {
        /// A session id (`s1`) or a journal's file name without `.jsonl`
        /// (default: the workspace's last session).
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Write the card to FILE rather than to stdout.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
pub struct FilterArgs {
    /// Only runs of a program whose path holds this text.
    #[arg(long, value_name = "TEXT")]
    program: Option<String>,
    /// Only sessions started on or after this UTC date (YYYY-MM-DD, or
    /// YYYY-MM-DDTHH:MM).
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Only sessions started on or before this UTC date.
    #[arg(long, value_name = "DATE")]
    until: Option<String>,
    /// Only sessions that ended so: exited, exited:N, crashed, killed,
    /// failed or open.
    #[arg(long, value_name = "OUTCOME")]
    outcome: Option<String>,
    /// Every workspace's journals, not only this one's.
    #[arg(long)]
    all_workspaces: bool,
}

impl FilterArgs {
    fn filter(&self, ws: &Workspace) -> Result<query::Filter, String> {
        query::Filter::new(
            (!self.all_workspaces).then(|| ws.root.display().to_string()),
            self.program.as_deref(),
            self.since.as_deref(),
            self.until.as_deref(),
            self.outcome.as_deref(),
        )
    }
}

pub fn run(ws: &Workspace, cmd: JournalCmd) -> u8 {
    match answer(ws, cmd) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(e) => {
            eprintln!("pairdbg: {e}");
            1
        }
    }
}

fn dir() -> Result<PathBuf, String> {
    journal::journals_dir().ok_or_else(|| "no state directory: set HOME or XDG_STATE_HOME".into())
}

fn json(v: &impl serde::Serialize) -> Result<String, String> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| format!("cannot write JSON: {e}"))
}

/// What the command prints on success.
fn answer(ws: &Workspace, cmd: JournalCmd) -> Result<String, String> {
    match cmd {
        JournalCmd::List { filter, json: j } => {
            let list: Vec<query::Summary> = query::list(&dir()?, &filter.filter(ws)?)
                .iter()
                .map(query::Loaded::summary)
                .collect();
            if j {
                json(&list)
            } else {
                Ok(query::list_text(&list))
            }
        }
        JournalCmd::Search {
            text,
            filter,
            json: j,
        } => {
            let found = query::search(&query::list(&dir()?, &filter.filter(ws)?), &text)?;
            if j { json(&found) } else { Ok(found.text()) }
        }
        JournalCmd::Show { id, stop, json: j } => {
            let loaded = query::resolve(&dir()?, &ws.root, "ID", &id)?;
            let shown = query::show(&loaded, stop)?;
            if j {
                json(&shown)
            } else {
                Ok(shown.text().to_string())
            }
        }
        JournalCmd::Diff { a, b, json: j } => {
            let dir = dir()?;
            let a = query::resolve(&dir, &ws.root, "A", &a)?;
            let b = query::resolve(&dir, &ws.root, "B", &b)?;
            let d = query::diff(&a, &b)?;
            if j { json(&d) } else { Ok(d.text()) }
        }
        JournalCmd::Export { session, out } => {
            export(ws, session.as_deref(), out.as_deref()).map(|()| String::new())
        }
    }
}

fn export(
    ws: &Workspace,
    session: Option<&str>,
    out: Option<&std::path::Path>,
) -> Result<(), String> {
    let dir = dir()?;
    let path = journal::find(&dir, &ws.root, session)?;
    let records =
        journal::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let card = journal::render_card(&records);
    match out {
        Some(file) => std::fs::write(file, card)
            .map_err(|e| format!("--out: cannot write {}: {e}", file.display())),
        None => {
            say!("{}", card.trim_end_matches('\n'));
            Ok(())
        }
    }
}
