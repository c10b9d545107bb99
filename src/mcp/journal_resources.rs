//! Past sessions as MCP resources, read from their journals on disk (the
//! journals hold secrets masked, and are masked again as they are read).
//! Resources rather than tools: they cost nothing in the tool list an
//! agent pays for on every conversation.
//!
//! - `debugger://journals`: the workspace's journals as JSON, filtered by
//!   `?program=&since=&until=&outcome=&all_workspaces=true`; with `text=`
//!   the places that text occurs in them instead.
//! - `debugger://journals/{id}`: one journal, every stop with its stack and
//!   locals; `?stop=N` one stop.
//! - `debugger://journals/{a}/diff/{b}`: where two runs first differ.

use crate::session::journal::{journals_dir, query};
use crate::session::validate::Workspace;

pub const JOURNALS: &str = "debugger://journals";
pub const JOURNAL_PREFIX: &str = "debugger://journals/";

/// The query fields each resource takes.
const LIST_FIELDS: &[&str] = &[
    "program",
    "since",
    "until",
    "outcome",
    "all_workspaces",
    "text",
];
const SHOW_FIELDS: &[&str] = &["stop"];

/// What a journals URI asks, its query checked field by field.
pub enum Asked {
    List(Vec<(String, String)>),
    Show(String, Vec<(String, String)>),
    Diff(String, String),
}

/// Whether `uri` is a journals resource, and what it asks; an error names
/// the part of the URI that is wrong.
pub fn parse(uri: &str) -> Option<Result<Asked, String>> {
    let (path, query) = uri.split_once('?').unwrap_or((uri, ""));
    let fields: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let known = |allowed: &[&str]| -> Result<(), String> {
        match fields.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
            Some((k, _)) => Err(format!(
                "query field {k:?} is not one this resource takes ({})",
                allowed.join(", ")
            )),
            None => Ok(()),
        }
    };
    if path == JOURNALS {
        return Some(known(LIST_FIELDS).map(|()| Asked::List(fields.clone())));
    }
    let rest = path.strip_prefix(JOURNAL_PREFIX)?;
    Some(match rest.split('/').collect::<Vec<_>>().as_slice() {
        [id] if !id.is_empty() => known(SHOW_FIELDS).map(|()| Asked::Show(id.to_string(), fields)),
        [a, "diff", b] => known(&[]).map(|()| Asked::Diff(a.to_string(), b.to_string())),
        _ => Err("expected debugger://journals/{id} or debugger://journals/{a}/diff/{b}".into()),
    })
}

/// The resource's body and its MIME type.
pub fn read(ws: &Workspace, asked: &Asked) -> Result<(String, &'static str), String> {
    let dir = journals_dir().ok_or("no state directory: set HOME or XDG_STATE_HOME")?;
    let field = |fields: &[(String, String)], name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    match asked {
        Asked::List(f) => {
            let all = field(f, "all_workspaces").is_some_and(|v| v == "true" || v == "1");
            let filter = query::Filter::new(
                (!all).then(|| ws.root.display().to_string()),
                field(f, "program").as_deref(),
                field(f, "since").as_deref(),
                field(f, "until").as_deref(),
                field(f, "outcome").as_deref(),
            )
            // The fields as the URI names them, not as the command line does.
            .map_err(|e| e.replace("--", ""))?;
            let journals = query::list(&dir, &filter);
            match field(f, "text") {
                Some(text) => {
                    let found =
                        query::search(&journals, &text).map_err(|e| e.replace("TEXT", "text"))?;
                    Ok((json(&found)?, "application/json"))
                }
                None => {
                    let list: Vec<query::Summary> =
                        journals.iter().map(query::Loaded::summary).collect();
                    Ok((json(&list)?, "application/json"))
                }
            }
        }
        Asked::Show(id, f) => {
            let stop = match field(f, "stop") {
                Some(n) => Some(
                    n.parse::<usize>()
                        .map_err(|_| format!("stop {n:?}: expected a stop's number, from 1"))?,
                ),
                None => None,
            };
            let j = query::resolve(&dir, &ws.root, "id", id)?;
            let shown = query::show(&j, stop).map_err(|e| e.replace("--stop", "stop"))?;
            Ok((shown.text().to_string(), "text/plain"))
        }
        Asked::Diff(a, b) => {
            let a = query::resolve(&dir, &ws.root, "a", a)?;
            let b = query::resolve(&dir, &ws.root, "b", b)?;
            Ok((query::diff(&a, &b)?.text(), "text/plain"))
        }
    }
}

fn json(v: &impl serde::Serialize) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| format!("cannot write JSON: {e}"))
}
