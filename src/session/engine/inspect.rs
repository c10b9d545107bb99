//! Reading and changing program state at a stop.

use futures::future::join_all;
use serde_json::json;

use super::{Apply, Engine, ReplyTx, or_reply};
use crate::adapters::SetVariable;
use crate::session::command::{Reply, VariablesQuery};
use crate::session::error::SessionError;
use crate::session::fetch::StopRequest;
use crate::session::link::Link;
use crate::session::parts_read::evaluation_error;
use crate::session::types::{Origin, RunState};
use crate::session::walk::{Container, MAX_SHELLS, NO_CHILDREN, resolve_container, short_value};
use crate::session::{reads, var_path};

/// How long an evaluation the program's death failed waits for the
/// session to show the end (the adapter, or the program's watch, tells it
/// within a fraction of a second).
const PROGRAM_END_SEEN_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

/// Whether the session shows the program's end within
/// `PROGRAM_END_SEEN_WITHIN`.
async fn end_seen(
    snaps: &mut tokio::sync::watch::Receiver<std::sync::Arc<crate::session::Snapshot>>,
) -> bool {
    let ended = snaps.wait_for(|s| matches!(s.state, RunState::Exited | RunState::Error));
    matches!(
        tokio::time::timeout(PROGRAM_END_SEEN_WITHIN, ended).await,
        Ok(Ok(_))
    )
}

impl Engine {
    pub(super) fn evaluate(
        &mut self,
        reply: ReplyTx,
        expression: String,
        frame_index: usize,
        whole: bool,
    ) {
        let prepared = crate::session::validate::check_expression(&expression)
            .and_then(|_| self.stopped_frame("evaluate", frame_index));
        let (client, frame) = or_reply!(prepared, reply);
        let function = self.frame_name(frame_index);
        let program = self.conn.pid.filter(|_| !self.config.is_attach());
        let mut snaps = self.snap_tx.subscribe();
        let applies = self.apply_tx.clone();
        tokio::spawn(async move {
            let quirks = client.quirks();
            let (context, cap) = match quirks.whole_value_context.filter(|_| whole) {
                Some(c) => (c, usize::MAX),
                None => (quirks.evaluate_context, reads::STORED_VALUE_CHARS),
            };
            let language = client.language();
            let call_form = language.call_form(&expression);
            let sent = call_form.as_deref().unwrap_or(&expression);
            let by_parts = language.parts_read(&expression);
            let evaluated = match by_parts.clone() {
                Some(p) if language.parts_read_first(&expression) => {
                    crate::session::parts_read::read(&client, frame, &expression, p).await
                }
                _ => match reads::evaluate_up_to(&client, sent, Some(frame), context, cap).await {
                    Ok(mut v) => {
                        if call_form.is_some() {
                            // Read again, the call would run again.
                            v.name = expression.clone();
                            v.evaluate_name = None;
                        }
                        Ok(v)
                    }
                    // What the adapter cannot evaluate (a method the compiler
                    // left out of the binary) may still be read from the parts.
                    Err(e @ crate::dap::DapError::Failed { .. }) => match by_parts {
                        Some(p) => {
                            crate::session::parts_read::read(&client, frame, &expression, p).await
                        }
                        None => Err(evaluation_error(&client, e)),
                    },
                    Err(e) => Err(evaluation_error(&client, e)),
                },
            };
            // A program killed under the call fails it, whatever the
            // adapter answered (some answer with no value); its end is what
            // the caller must read then, not the stop it lost.
            let no_value = matches!(&evaluated, Ok(v) if v.value.is_empty() && v.type_name.is_empty())
                && language.every_expression_has_value();
            let killed = program.is_some_and(crate::dap::exit_watch::gone);
            let evaluated = if killed || no_value {
                let ended = end_seen(&mut snaps).await;
                Err(SessionError::Evaluate(if killed || ended {
                    format!("the program ended while `{expression}` was evaluated")
                } else {
                    format!("`{expression}` gave no value: the adapter answered with none")
                }))
            } else {
                evaluated
            };
            let res = match evaluated {
                Ok(v) => {
                    // Read as a local's preview is, so it reads the same.
                    let mut one = [v];
                    crate::session::fill::fill_children(&client, &mut one, 1).await;
                    let most = crate::session::fetch::PREVIEW_LOCALS;
                    crate::session::fill::fill_grandchildren(&client, &mut one, most).await;
                    // A local named alone is typed as its frame's is.
                    if let Some(function) = &function {
                        reads::declared_in(&client, function, &mut one);
                    }
                    let [mut v] = one;
                    v.length = crate::session::cut_lengths::length(&client, &v, frame).await;
                    Ok(v)
                }
                Err(e) => Err(e),
            };
            // The adapter's news sent before its answer (a `terminated`
            // when the call killed the program) is taken first, so the
            // answer is judged by it.
            let _ = applies.send(Box::new(move |e: &mut Engine| {
                e.drain_events();
                // The root's `terminated` starts the end; the state follows
                // once the adapter has answered `disconnect`.
                let ending = e.conn_by_id(e.tree.root).is_some_and(|c| c.disconnecting);
                let ended = ending || matches!(e.snap.state, RunState::Exited | RunState::Error);
                let res = match res {
                    Ok(_) if ended => Err(SessionError::Evaluate(format!(
                        "the program ended while `{expression}` was evaluated"
                    ))),
                    other => other,
                };
                e.publish();
                let _ = reply.send(res.map(Reply::Value));
            }) as Apply);
        });
    }

    pub(super) fn set_variable(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        path: String,
        value: String,
        frame_index: usize,
    ) {
        let prepared = self.stopped_frame("set a variable", frame_index);
        let (client, frame) = or_reply!(prepared, reply);
        let watches = self.watch_list();
        let thread_id = self.conn.thread_id;
        let reason = self
            .snap
            .stop
            .as_ref()
            .map(|s| s.reason.clone())
            .unwrap_or_default();
        let what = format!("{} set {path} = {value}", origin.noun());
        let language = client.language();
        let Some(target) = language.path_expression(&path) else {
            let _ = reply.send(Err(SessionError::invalid(
                "name",
                format!("{path:?} is not a variable or a path such as cart.items[0].price"),
            )));
            return;
        };
        or_reply!(crate::session::validate::check_expression(&value), reply);
        let set_expression = self.supports("supportsSetExpression");
        if matches!(language.set_variable(), SetVariable::Dap)
            && !set_expression
            && !self.supports("supportsSetVariable")
        {
            let _ = reply.send(Err(SessionError::Unsupported(format!(
                "setting a variable is not supported by {}",
                self.config.adapter.name()
            ))));
            return;
        }
        let context = client.quirks().evaluate_context;
        let conn = self.conn.id;
        self.spawn(async move {
            let res = match language.set_variable() {
                SetVariable::Assignment(statement) => {
                    let statement = statement(&target, &value);
                    match reads::evaluate(&client, &statement, Some(frame), context).await {
                        Ok(_) => reads::evaluate(&client, &target, Some(frame), context)
                            .await
                            .map_err(SessionError::from),
                        Err(e) => Err(evaluation_error(&client, e)),
                    }
                }
                SetVariable::Dap => {
                    set_by_dap(&client, frame, &path, &target, &value, set_expression).await
                }
            };
            Box::new(move |e: &mut Engine| match res {
                // Its process lost the focus meanwhile: its stop is read
                // afresh, new value and all, when it has the focus again.
                Ok(mut var) if e.conn.id != conn => {
                    e.touch(Some(origin), what);
                    var.name = path;
                    let _ = reply.send(Ok(Reply::Value(var)));
                }
                Ok(mut var) => {
                    e.touch(Some(origin), what);
                    e.run_gen += 1;
                    var.name = path;
                    e.load_stop_then(
                        StopRequest {
                            thread_id,
                            reason,
                            description: None,
                            text: None,
                            watches,
                            thread_note: e.snap.stop.as_ref().and_then(|s| s.thread_note.clone()),
                            hints: e.conn.hints.clone(),
                            exception: e.snap.stop.as_ref().and_then(|s| s.exception.clone()),
                            stack: None,
                        },
                        move |_| {
                            let _ = reply.send(Ok(Reply::Value(var)));
                        },
                    );
                }
                Err(err) => {
                    let _ = reply.send(Err(err));
                }
            }) as Apply
        });
    }

    pub(super) fn variables(&mut self, reply: ReplyTx, q: VariablesQuery) {
        let prepared = self.stopped_frame("read variables", q.frame_index);
        let (client, frame) = or_reply!(prepared, reply);
        let client = client.pinned_to_stop();
        // A frame's own locals are typed as its function declares them.
        let function = (q.scope.is_none() && q.path.is_none())
            .then(|| self.frame_name(q.frame_index))
            .flatten();
        tokio::spawn(async move {
            let res = async {
                if q.scope.is_none()
                    && q.path.is_none()
                    && let Some((mut vars, total)) = crate::session::split_locals::page(
                        &client,
                        frame,
                        q.start,
                        q.count,
                        q.filter.as_deref(),
                    )
                    .await?
                {
                    if let Some(function) = &function {
                        crate::session::reads::declared_in(&client, function, &mut vars);
                    }
                    return Ok(Reply::Variables { vars, total });
                }
                let container =
                    resolve_path(&client, frame, q.scope.as_deref(), q.path.as_deref()).await?;
                let expression = container.expression.as_deref();
                fn window<'a>(
                    reference: i64,
                    indexed: Option<usize>,
                    type_name: &'a str,
                    expression: Option<&'a str>,
                    frame: i64,
                ) -> crate::session::paging::Window<'a> {
                    crate::session::paging::Window {
                        reference,
                        type_name,
                        expression,
                        frame,
                        indexed,
                    }
                }
                let (mut page, mut total) = crate::session::paging::page(
                    &client,
                    window(
                        container.reference,
                        container.indexed,
                        &container.type_name,
                        expression,
                        frame,
                    ),
                    q.start,
                    q.count,
                    q.filter.as_deref(),
                )
                .await?;
                if let Some(function) = &function {
                    crate::session::reads::declared_in(&client, function, &mut page);
                }
                let language = client.language();
                let mut type_name = container.type_name.clone();
                page = crate::session::map_entries::read(&client, &type_name, page).await;
                crate::session::listing::typed(language, &type_name, &mut page);
                // A pointer whose one child is its unnamed target (as an
                // adapter may show `*T`), an enum whose one child is its
                // variant, opens to the target's members, as a struct
                // does: the extra level says nothing.
                for _ in 0..MAX_SHELLS {
                    let [target] = page.as_slice() else { break };
                    if total != 1
                        || q.filter.is_some()
                        || !crate::session::listing::opens_through(language, &type_name, target)
                    {
                        break;
                    }
                    let (reference, indexed) = (target.reference, target.indexed);
                    let inner_type = target.type_name.clone();
                    let (mut inner, inner_total) = crate::session::paging::page(
                        &client,
                        window(reference, indexed, &inner_type, expression, frame),
                        q.start,
                        q.count,
                        None,
                    )
                    .await?;
                    // A variant with nothing inside (`None`) stays as it
                    // is: an empty listing would say less.
                    if inner_total == 0 {
                        break;
                    }
                    inner = crate::session::map_entries::read(&client, &inner_type, inner).await;
                    crate::session::listing::typed(language, &inner_type, &mut inner);
                    (page, total, type_name) = (inner, inner_total, inner_type);
                }
                crate::session::fill::fill_previews(&client, &mut page, q.count).await;
                crate::session::cut_lengths::fill(&client, page.iter_mut(), frame).await;
                Ok::<_, SessionError>(Reply::Variables { vars: page, total })
            }
            .await;
            let _ = reply.send(res);
        });
    }

    pub(super) fn stack(&mut self, reply: ReplyTx, levels: usize) {
        let (client, thread) = or_reply!(self.require_stopped("read the stack"), reply);
        tokio::spawn(async move {
            let res = client
                .request(
                    "stackTrace",
                    Some(json!({"threadId": thread, "startFrame": 0, "levels": levels})),
                )
                .await
                .map_err(SessionError::from)
                .and_then(|b| {
                    reads::parse_frames(b, client.language()).map_err(SessionError::from)
                });
            let _ = reply.send(res.map(|(frames, total)| Reply::Frames { frames, total }));
        });
    }

    pub(super) fn watch(
        &mut self,
        origin: Origin,
        reply: ReplyTx,
        add: Vec<String>,
        remove: Vec<String>,
    ) {
        for expr in add.iter().chain(remove.iter()) {
            or_reply!(crate::session::validate::check_expression(expr), reply);
        }
        let max = crate::session::validate::MAX_WATCHES;
        let kept = self
            .snap
            .watches
            .iter()
            .filter(|w| !remove.contains(&w.expression))
            .count();
        let new = add
            .iter()
            .filter(|e| !self.snap.watches.iter().any(|w| &w.expression == *e))
            .collect::<std::collections::HashSet<_>>()
            .len();
        if kept + new > max {
            let _ = reply.send(Err(SessionError::invalid(
                "watches",
                format!(
                    "{} watches would be set; the limit is {max} (each is read at every stop)",
                    kept + new
                ),
            )));
            return;
        }
        self.snap
            .watches
            .retain(|w| !remove.contains(&w.expression));
        for expr in add {
            if !self.snap.watches.iter().any(|w| w.expression == expr) {
                self.snap.watches.push(crate::session::types::WatchValue {
                    expression: expr,
                    origin,
                    value: Err("not evaluated yet".into()),
                });
            }
        }
        self.touch(
            Some(origin),
            format!("{} changed the watches", origin.noun()),
        );
        // At a stop, the reply waits for the values so the next read shows them.
        let Ok(frame) = self.frame_id(0) else {
            let _ = reply.send(Ok(Reply::Done));
            return;
        };
        if let (Some(client), RunState::Stopped) = (self.conn.client.clone(), self.snap.state) {
            let list = self.watch_list();
            let gen_at = self.run_gen;
            let conn = self.conn.id;
            self.spawn(async move {
                let vals = join_all(
                    list.iter()
                        .map(|(e, _)| crate::session::parts_read::watch(&client, e, frame)),
                )
                .await;
                Box::new(move |e: &mut Engine| {
                    let _ = reply.send(Ok(Reply::Done));
                    if e.run_gen != gen_at || e.conn.id != conn {
                        return;
                    }
                    e.snap.watches = list
                        .into_iter()
                        .zip(vals)
                        .map(
                            |((expression, origin), v)| crate::session::types::WatchValue {
                                expression,
                                origin,
                                value: v,
                            },
                        )
                        .collect();
                    e.touch(None, "");
                }) as Apply
            });
        } else {
            let _ = reply.send(Ok(Reply::Done));
        }
    }
}

/// The container `path` names under a frame's scope: walked by its
/// children's names where it can be, else evaluated as an expression, so
/// any path or expression the tools print is accepted back.
async fn resolve_path(
    client: &Link,
    frame: i64,
    scope: Option<&str>,
    path: Option<&str>,
) -> Result<Container, SessionError> {
    let segs = path.map(var_path::split_path).unwrap_or_default();
    let walked = resolve_container(client, frame, scope, &segs).await;
    // A path walked to its end that has no children has none, whatever
    // its evaluation would open (a raw pointer read through).
    let leaf = matches!(&walked, Err(SessionError::Invalid { message, .. }) if message.ends_with(NO_CHILDREN));
    let Some(path) = path.filter(|_| walked.is_err() && !leaf) else {
        return walked;
    };
    let Some(expression) = client.language().path_expression(path).or_else(|| {
        crate::session::validate::check_expression(path)
            .ok()
            .map(|_| path.to_string())
    }) else {
        return walked;
    };
    let context = client.quirks().evaluate_context;
    let Ok(v) = reads::evaluate(client, &expression, Some(frame), context).await else {
        return walked;
    };
    if v.reference <= 0 {
        return Err(SessionError::invalid(
            "expand",
            format!("{path} = {} has no children", short_value(&v.value)),
        ));
    }
    Ok(Container {
        reference: v.reference,
        indexed: v.indexed,
        expression: Some(expression),
        type_name: v.type_name,
    })
}

/// A new value through the adapter: `setExpression` where it has it, else
/// `setVariable` on the value's container; then the value read back.
async fn set_by_dap(
    client: &Link,
    frame: i64,
    path: &str,
    target: &str,
    value: &str,
    set_expression: bool,
) -> Result<crate::session::types::Var, SessionError> {
    if set_expression {
        client
            .request(
                "setExpression",
                Some(json!({"expression": target, "value": value, "frameId": frame})),
            )
            .await
            .map_err(|e| evaluation_error(client, e))?;
    } else {
        let mut segs = var_path::split_path(path);
        let name = segs.pop().unwrap_or_default();
        let container = resolve_container(client, frame, None, &segs)
            .await?
            .reference;
        let children = reads::variables(client, container).await?;
        let dap_name = var_path::find_child(&children, &name)
            .map(|v| v.name.clone())
            .ok_or_else(|| SessionError::invalid("name", format!("{path} does not exist")))?;
        client
            .request(
                "setVariable",
                Some(json!({"variablesReference": container, "name": dap_name, "value": value})),
            )
            .await
            .map_err(|e| evaluation_error(client, e))?;
    }
    reads::evaluate(
        client,
        target,
        Some(frame),
        client.quirks().evaluate_context,
    )
    .await
    .map_err(SessionError::from)
}
