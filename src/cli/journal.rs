//! `pairdbg journal export`: a session's hand-off card, read from its
//! journal on disk.

use std::path::PathBuf;

use clap::Subcommand;

use crate::session::journal;
use crate::session::validate::Workspace;

#[derive(Debug, Subcommand)]
pub enum JournalCmd {
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

pub fn run(ws: &Workspace, cmd: JournalCmd) -> u8 {
    let JournalCmd::Export { session, out } = cmd;
    match export(ws, session.as_deref(), out.as_deref()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("pairdbg: {e}");
            1
        }
    }
}

fn export(
    ws: &Workspace,
    session: Option<&str>,
    out: Option<&std::path::Path>,
) -> Result<(), String> {
    let dir = journal::journals_dir().ok_or("no state directory: set HOME or XDG_STATE_HOME")?;
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
