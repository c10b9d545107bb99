//! The debugger's state as MCP resources: the sessions, and for each its
//! viewport, breakpoints, output, trace and sources.

use rmcp::ErrorData;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use serde_json::json;

use super::journal_resources;
use super::server::PairdbgServer;
use crate::session::SessionHandle;
use crate::viewport::{Extras, render_text};

const SESSIONS: &str = "debugger://sessions";
const PREFIX: &str = "debugger://session/";
/// The output resource holds the last this many lines.
const OUTPUT_LINES: usize = 500;
/// Sources larger than this are refused rather than sent whole.
const SOURCE_BYTES: u64 = 1024 * 1024;

/// What reading `debugger://notifications` tells: subscribing to it is the
/// other way to ask for them.
const NOTIFICATIONS_ABOUT: &str = "pairdbg's own notifications, `debugger/breakpointHit` (a breakpoint, tracepoint or exception hit: sessionId, breakpointId, location, hitCount, threadId, timestamp, logMessage, exceptionInfo) and `debugger/sessionStateChanged` (sessionId, epoch, state, previousState, stopSeq, reason, location, exitCode, change), are sent only to a client that asks: by declaring the `debugger/notifications` capability under `experimental` (or `extensions`) at initialize, or by subscribing to this resource. They tell only of the sessions the client started or called on, or whose resources it subscribed to. Without them, subscribe to `debugger://session/{id}` for `notifications/resources/updated`, or pass a progress token to a waiting call.";

/// What a URI names.
enum Target<'a> {
    Notifications,
    Sessions,
    Viewport(&'a str),
    Breakpoints(&'a str),
    Breakpoint(&'a str, u64),
    Output(&'a str),
    Trace(&'a str),
    Source(&'a str, &'a str),
    Journals(journal_resources::Asked),
}

fn parse(uri: &str) -> Option<Target<'_>> {
    if uri == SESSIONS {
        return Some(Target::Sessions);
    }
    if uri == super::push::OPT_IN_URI {
        return Some(Target::Notifications);
    }
    if let Some(asked) = journal_resources::parse(uri) {
        return asked.ok().map(Target::Journals);
    }
    let rest = uri.strip_prefix(PREFIX)?;
    let (id, tail) = rest.split_once('/').unwrap_or((rest, ""));
    if id.is_empty() {
        return None;
    }
    Some(match tail {
        "" => Target::Viewport(id),
        "breakpoints" => Target::Breakpoints(id),
        "output" => Target::Output(id),
        "trace" => Target::Trace(id),
        t if t.starts_with("breakpoints/") => {
            Target::Breakpoint(id, t.strip_prefix("breakpoints/")?.parse().ok()?)
        }
        t => Target::Source(id, t.strip_prefix("source/").filter(|p| !p.is_empty())?),
    })
}

fn not_found(uri: &str, why: impl std::fmt::Display) -> ErrorData {
    ErrorData::resource_not_found(format!("{uri}: {why}"), None)
}

fn text(uri: &str, mime: &str, body: String) -> ReadResourceResult {
    ReadResourceResult::new(vec![ResourceContents::TextResourceContents {
        uri: uri.to_string(),
        mime_type: Some(mime.to_string()),
        text: body,
        meta: None,
    }])
}

impl PairdbgServer {
    pub(crate) fn list_debug_resources(&self) -> ListResourcesResult {
        let mut out = vec![
            Resource::new(SESSIONS, "sessions")
                .with_description("Debug sessions and their states")
                .with_mime_type("application/json"),
            Resource::new(super::push::OPT_IN_URI, "notifications")
                .with_description(
                    "Subscribe to receive debugger/breakpointHit and debugger/sessionStateChanged",
                )
                .with_mime_type("text/plain"),
            Resource::new(journal_resources::JOURNALS, "journals")
                .with_description("Past sessions of this workspace, from their journals")
                .with_mime_type("application/json"),
        ];
        let (list, _) = self.registry.list();
        for s in &list {
            let base = format!("{PREFIX}{}", s.id);
            out.push(
                Resource::new(base.clone(), format!("{} viewport", s.id))
                    .with_mime_type("text/plain"),
            );
            for (part, mime) in [
                ("breakpoints", "application/json"),
                ("output", "text/plain"),
                ("trace", "application/json"),
            ] {
                out.push(
                    Resource::new(format!("{base}/{part}"), format!("{} {part}", s.id))
                        .with_mime_type(mime),
                );
            }
        }
        ListResourcesResult::with_all_items(out)
    }

    pub(crate) fn list_debug_templates(&self) -> ListResourceTemplatesResult {
        let t = |uri: &str, name: &str, desc: &str| {
            let mut r = ResourceTemplate::new(uri, name);
            r.description = Some(desc.into());
            r
        };
        ListResourceTemplatesResult::with_all_items(vec![
            t(
                "debugger://session/{id}",
                "viewport",
                "The session's viewport",
            ),
            t(
                "debugger://session/{id}/breakpoints",
                "breakpoints",
                "Breakpoints as JSON",
            ),
            t(
                "debugger://session/{id}/breakpoints/{breakpoint_id}",
                "breakpoint",
                "One breakpoint as JSON",
            ),
            t(
                "debugger://session/{id}/output",
                "output",
                "The program's last output",
            ),
            t(
                "debugger://session/{id}/trace",
                "trace",
                "Breakpoint and tracepoint hits",
            ),
            t(
                "debugger://session/{id}/source/{path}",
                "source",
                "A workspace file",
            ),
            t(
                "debugger://journals{?program,since,until,outcome,text}",
                "journals",
                "Past sessions as JSON, filtered; with text, where it occurs",
            ),
            t(
                "debugger://journals/{journal_id}{?stop}",
                "journal",
                "A past session's stops, stacks and locals",
            ),
            t(
                "debugger://journals/{a}/diff/{b}",
                "journal diff",
                "Where two runs first differ: path and values",
            ),
        ])
    }

    pub(crate) fn check_resource(&self, uri: &str) -> Result<(), ErrorData> {
        if let Some(Err(e)) = journal_resources::parse(uri) {
            return Err(not_found(uri, e));
        }
        match parse(uri) {
            Some(Target::Sessions | Target::Notifications | Target::Journals(_)) => Ok(()),
            Some(
                Target::Viewport(id)
                | Target::Breakpoints(id)
                | Target::Breakpoint(id, _)
                | Target::Output(id)
                | Target::Trace(id)
                | Target::Source(id, _),
            ) => self.resource_session(uri, id).map(|_| ()),
            None => Err(not_found(uri, "not a pairdbg resource")),
        }
    }

    fn resource_session(&self, uri: &str, id: &str) -> Result<SessionHandle, ErrorData> {
        self.registry.get(Some(id)).map_err(|e| not_found(uri, e))
    }

    pub(crate) fn read_debug_resource(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        if let Some(Err(e)) = journal_resources::parse(uri) {
            return Err(not_found(uri, e));
        }
        let target = parse(uri).ok_or_else(|| not_found(uri, "not a pairdbg resource"))?;
        match target {
            Target::Notifications => Ok(text(uri, "text/plain", NOTIFICATIONS_ABOUT.into())),
            Target::Journals(asked) => journal_resources::read(&self.workspace, &asked)
                .map(|(body, mime)| text(uri, mime, body))
                .map_err(|e| not_found(uri, e)),
            Target::Sessions => {
                let (list, current) = self.registry.list();
                let sessions: Vec<_> = list
                    .iter()
                    .map(|s| {
                        let snap = s.snapshot();
                        json!({
                            "id": s.id,
                            "program": snap.program,
                            "state": snap.state,
                            "epoch": snap.epoch,
                            "current": current.as_deref() == Some(&s.id),
                        })
                    })
                    .collect();
                Ok(text(uri, "application/json", json!(sessions).to_string()))
            }
            Target::Viewport(id) => {
                let snap = self.resource_session(uri, id)?.snapshot();
                // Reading a resource is not the agent seeing a result: no
                // diff base or note marker moves.
                let body = render_text(
                    &self.views.agent_snapshot(&snap),
                    &self.views.config(id),
                    Extras {
                        previous: None,
                        notes_after_epoch: 0,
                        more: Some(&super::names::MCP.more),
                    },
                );
                Ok(text(
                    uri,
                    "text/plain",
                    format!("{}\n[session {id} · epoch {}]", body.trim_end(), snap.epoch),
                ))
            }
            Target::Breakpoints(id) => {
                let snap = self.resource_session(uri, id)?.snapshot();
                let list: Vec<_> = snap
                    .breakpoints
                    .iter()
                    .map(|b| {
                        let mut v = serde_json::to_value(b).unwrap_or_default();
                        v["file"] = json!(snap.display_path(&b.file));
                        v
                    })
                    .collect();
                Ok(text(
                    uri,
                    "application/json",
                    json!({"epoch": snap.epoch, "breakpoints": list}).to_string(),
                ))
            }
            Target::Breakpoint(id, bp) => {
                let snap = self.resource_session(uri, id)?.snapshot();
                let b = snap
                    .breakpoints
                    .iter()
                    .find(|b| b.id == bp)
                    .ok_or_else(|| not_found(uri, format!("no breakpoint {bp}")))?;
                let mut v = serde_json::to_value(b).unwrap_or_default();
                v["file"] = json!(snap.display_path(&b.file));
                v["epoch"] = json!(snap.epoch);
                Ok(text(uri, "application/json", v.to_string()))
            }
            Target::Output(id) => {
                let s = self.resource_session(uri, id)?;
                Ok(text(
                    uri,
                    "text/plain",
                    self.views
                        .agent_text(&s.taint(), &s.output_tail(OUTPUT_LINES).join("\n")),
                ))
            }
            Target::Trace(id) => {
                self.resource_session(uri, id)?;
                Ok(text(
                    uri,
                    "application/json",
                    json!({"hits": self.push.trace(id)}).to_string(),
                ))
            }
            Target::Source(id, path) => {
                let s = self.resource_session(uri, id)?;
                let file = self
                    .workspace
                    .resolve_file("path", path)
                    .map_err(|e| not_found(uri, e))?;
                let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
                if size > SOURCE_BYTES {
                    return Err(ErrorData::invalid_params(
                        format!("{uri}: {size} bytes; the limit is {SOURCE_BYTES}"),
                        None,
                    ));
                }
                let body = std::fs::read_to_string(&file).map_err(|e| not_found(uri, e))?;
                Ok(text(
                    uri,
                    "text/plain",
                    self.views.agent_text(&s.taint(), &body),
                ))
            }
        }
    }
}
