//! Exception breakpoints: the adapter's filters, and breakpoints by
//! exception type where the adapter takes `exceptionOptions`.

use serde_json::{Value, json};

use super::{Apply, Engine, ReplyTx};
use crate::session::SessionEvent;
use crate::session::command::{ExceptionTypeRequest, Reply};
use crate::session::error::SessionError;
use crate::session::types::{ExceptionBreakpoint, Origin};

/// The longest exception type name accepted.
const MAX_TYPE_CHARS: usize = 200;

impl Engine {
    /// `setExceptionBreakpoints`'s arguments: the filters, and the types as
    /// options, the filters then repeated as options since options replace
    /// them.
    pub(super) fn exception_arguments(&self) -> Value {
        let filters = &self.snap.exception_filters;
        let types: Vec<&ExceptionBreakpoint> = self
            .snap
            .exception_types
            .iter()
            .filter(|t| t.enabled)
            .collect();
        let Some(q) = self.config.adapter.quirks().exception_options else {
            return json!({"filters": filters});
        };
        if types.is_empty() {
            return json!({"filters": filters});
        }
        let mut options: Vec<Value> = filters
            .iter()
            .filter_map(|f| q.filter_modes.iter().find(|(name, _)| name == f))
            .map(|(_, mode)| json!({"path": [{"names": [q.category]}], "breakMode": mode}))
            .collect();
        for t in types {
            for (on, mode) in [(t.first_chance, "always"), (t.second_chance, "unhandled")] {
                if on {
                    options.push(json!({
                        "path": [{"names": [q.category]}, {"names": [t.exception_type]}],
                        "breakMode": mode,
                    }));
                }
            }
        }
        json!({"filters": filters, "exceptionOptions": options})
    }

    /// A filter the launch asked for that the adapter, now that it has told
    /// its own, does not have: the launch is refused rather than run
    /// without the stops it asked for.
    pub(super) fn unknown_launch_filter(&self) -> Option<String> {
        if self.conn.id != self.tree.root {
            return None;
        }
        // Only those the launch named: the defaults are the adapter's own.
        let asked = self.config.exception_filters.as_ref()?;
        let known = self.known_filters();
        let bad = asked.iter().find(|f| !known.contains(f))?;
        let adapter = self.config.adapter.name();
        Some(match known.is_empty() {
            true => format!("exception_breakpoints: {bad:?}: {adapter} has no exception filters"),
            false => format!(
                "exception_breakpoints: {bad:?} is not a filter of {adapter}; it has {known:?}"
            ),
        })
    }

    /// The adapter's filters, for messages.
    fn known_filters(&self) -> Vec<String> {
        self.snap
            .available_exception_filters
            .iter()
            .map(|(f, _)| f.clone())
            .collect()
    }

    pub(super) fn set_exception_filters(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        filters: Vec<String>,
    ) {
        let known = self.known_filters();
        // Before `initialize` answers, the adapter's filters are not known yet.
        let told = !self.conn.capabilities.is_null();
        if let Some(bad) = filters
            .iter()
            .find(|f| (told || !known.is_empty()) && !known.contains(f))
        {
            let message = if known.is_empty() {
                format!(
                    "{bad:?}: {} has no exception filters",
                    self.config.adapter.name()
                )
            } else {
                format!("{bad:?} is not a filter of this adapter; it has {known:?}")
            };
            let _ = reply.send(Err(SessionError::invalid("filters", message)));
            return;
        }
        self.snap.exception_filters = filters.clone();
        self.touch(
            Some(origin),
            format!("{} set exception breakpoints {filters:?}", origin.noun()),
        );
        self.send_exception_breakpoints(reply, |_| Reply::Done);
    }

    /// Sends the exception breakpoints; answers with `answer` once the
    /// adapter has.
    fn send_exception_breakpoints(
        &mut self,
        reply: ReplyTx,
        answer: impl FnOnce(&Engine) -> Reply + Send + 'static,
    ) {
        self.emit(SessionEvent::BreakpointsChanged);
        let links = self.configured_links();
        if links.is_empty() {
            let _ = reply.send(Ok(answer(self)));
            return;
        }
        let args = self.exception_arguments();
        // Sent now, before any resume that follows in this same turn.
        let futs: Vec<_> = links
            .iter()
            .map(|(_, c)| c.request("setExceptionBreakpoints", Some(args.clone())))
            .collect();
        self.spawn(async move {
            let results = futures::future::join_all(futs).await;
            // The root's answer is the one to report; any success verifies.
            let ok = results.iter().any(Result::is_ok);
            let first = results.into_iter().next();
            Box::new(move |e: &mut Engine| {
                for t in e.snap.exception_types.iter_mut() {
                    t.verified = ok && t.enabled;
                }
                e.touch(None, "");
                let res = match first {
                    Some(Err(err)) if !ok => Err(SessionError::from(err)),
                    _ => Ok(answer(e)),
                };
                let _ = reply.send(res);
            }) as Apply
        });
    }

    pub(super) fn set_exception_type(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        req: ExceptionTypeRequest,
    ) {
        if let Err(e) = self.check_exception_type(&req) {
            let _ = reply.send(Err(e));
            return;
        }
        let name = req.exception_type.trim().to_string();
        let id = match self
            .snap
            .exception_types
            .iter_mut()
            .find(|t| t.exception_type == name)
        {
            Some(t) => {
                t.first_chance = req.first_chance;
                t.second_chance = req.second_chance;
                t.include_subtypes = req.include_subtypes;
                t.enabled = true;
                t.origin = origin;
                t.id
            }
            None => {
                let id = self.next_bp_id;
                self.next_bp_id += 1;
                self.snap.exception_types.push(ExceptionBreakpoint {
                    id,
                    exception_type: name.clone(),
                    first_chance: req.first_chance,
                    second_chance: req.second_chance,
                    include_subtypes: req.include_subtypes,
                    enabled: true,
                    verified: false,
                    hits: 0,
                    origin,
                });
                id
            }
        };
        self.touch(
            Some(origin),
            format!("{} set an exception breakpoint on {name}", origin.noun()),
        );
        self.send_exception_breakpoints(reply, move |e| exception_reply(e, id));
    }

    fn check_exception_type(&self, req: &ExceptionTypeRequest) -> Result<(), SessionError> {
        let name = req.exception_type.trim();
        let n = name.chars().count();
        if n == 0 || n > MAX_TYPE_CHARS {
            return Err(SessionError::invalid(
                "exception_type",
                format!("{n} characters; give a type name of 1 to {MAX_TYPE_CHARS}"),
            ));
        }
        if !name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$'))
        {
            return Err(SessionError::invalid(
                "exception_type",
                format!("{name:?} is not a type name"),
            ));
        }
        if !req.first_chance && !req.second_chance {
            return Err(SessionError::invalid(
                "break_on_first_chance",
                "with break_on_second_chance also false it would never break",
            ));
        }
        let adapter = self.config.adapter.name();
        let told = !self.conn.capabilities.is_null();
        let options = self.config.adapter.quirks().exception_options;
        if options.is_none() || (told && !self.supports("supportsExceptionOptions")) {
            let known = self.known_filters();
            return Err(SessionError::invalid(
                "exception_type",
                if known.is_empty() {
                    format!("{adapter} has no exception breakpoints")
                } else {
                    format!(
                        "{adapter} breaks on exceptions by filter only; its filters are {known:?} (use filters)"
                    )
                },
            ));
        }
        Ok(())
    }

    pub(super) fn remove_exception_type(&mut self, origin: Origin, reply: ReplyTx, id: u64) {
        let Some(i) = self.snap.exception_types.iter().position(|t| t.id == id) else {
            return;
        };
        let t = self.snap.exception_types.remove(i);
        self.touch(
            Some(origin),
            format!(
                "{} removed the exception breakpoint on {}",
                origin.noun(),
                t.exception_type
            ),
        );
        self.send_exception_breakpoints(reply, move |_| Reply::Removed(vec![], vec![t]));
    }

    pub(super) fn enable_exception_type(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        id: u64,
        enabled: bool,
    ) {
        let Some(t) = self.snap.exception_types.iter_mut().find(|t| t.id == id) else {
            return;
        };
        t.enabled = enabled;
        let name = t.exception_type.clone();
        self.touch(
            Some(origin),
            format!(
                "{} {} the exception breakpoint on {name}",
                origin.noun(),
                if enabled { "enabled" } else { "disabled" }
            ),
        );
        self.send_exception_breakpoints(reply, move |e| exception_reply(e, id));
    }
}

fn exception_reply(e: &Engine, id: u64) -> Reply {
    match e.snap.exception_types.iter().find(|t| t.id == id) {
        Some(t) => Reply::Exception(t.clone()),
        None => Reply::Done,
    }
}
