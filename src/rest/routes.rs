//! The five operations, each a translation onto the session table and the
//! engine.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};

use super::Rest;
use super::body::parse;
use super::error::ApiError;
use super::model::{CreateSession, Created, Ended, SessionState, Status, Target, Timings};
use super::reply::ok;
use super::run::{self, Op};
use super::validation;
use crate::session::RunState;

type Shared = State<Arc<Rest>>;

fn answer(r: Result<Response, ApiError>) -> Response {
    r.unwrap_or_else(IntoResponse::into_response)
}

pub async fn create(State(rest): Shared, body: Bytes) -> Response {
    answer((|| {
        let body: CreateSession = parse(&body)?;
        let entry = validation::entry(&rest.agent.workspace, body)?;
        let id = rest.table.create(entry)?;
        Ok(ok(&Created { session_id: id }))
    })())
}

pub async fn breakpoint(state: Shared, id: Path<String>, body: Bytes) -> Response {
    operation(state, id, body, Op::Breakpoint).await
}

pub async fn resume(state: Shared, id: Path<String>, body: Bytes) -> Response {
    operation(state, id, body, Op::Continue).await
}

async fn operation(State(rest): Shared, Path(id): Path<String>, body: Bytes, op: Op) -> Response {
    answer(
        async {
            let rs = rest.table.get(&id)?;
            let target: Target = parse(&body)?;
            let (path, line) = validation::target(&rest.agent.workspace, &target)?;
            let result = run::run(&rest, &rs, op, &target.file, &path, line).await?;
            // Deleted meanwhile: its run must not outlive it.
            if rest.table.get(&id).is_err() {
                end(&rest, &rs).await;
            }
            Ok(ok(&result))
        }
        .await,
    )
}

pub async fn get(State(rest): Shared, Path(id): Path<String>) -> Response {
    answer((|| {
        let rs = rest.table.get(&id)?;
        let busy = rs.is_busy();
        let st = rs.lock();
        let status = match (busy, st.settled_status()) {
            (true, _) => Status::Running,
            (false, Some(s)) => s,
            (false, None) => {
                let run = st.run.as_deref();
                match rest.agent.registry.get(run).map(|s| s.snapshot().state) {
                    Ok(RunState::Stopped) => Status::Paused,
                    Ok(RunState::Starting | RunState::Running) => Status::Running,
                    Ok(RunState::Error) => Status::Error,
                    // Ended by another front end, or by itself.
                    Ok(RunState::Exited) | Err(_) => Status::Completed,
                }
            }
        };
        let timings = st.last_run_ms.map(|last| Timings {
            last_run_ms: Some(round(last)),
            total_cpu_time_ms: Some(round(st.total_run_ms)),
        });
        Ok(ok(&SessionState {
            status,
            last_breakpoint: st.last_breakpoint.clone(),
            timings,
        }))
    })())
}

pub async fn delete(State(rest): Shared, Path(id): Path<String>) -> Response {
    answer(
        async {
            let rs = rest
                .table
                .remove(&id)
                .ok_or_else(|| ApiError::no_session(&id))?;
            end(&rest, &rs).await;
            Ok(ok(&Ended { ended: true }))
        }
        .await,
    )
}

/// Ends a session's run, if it has one.
async fn end(rest: &Rest, rs: &super::table::RestSession) {
    let run = rs.lock().run.take();
    if let Some(s) = run.and_then(|id| rest.agent.registry.get(Some(&id)).ok()) {
        let _ = s.terminate(rest.agent.origin).await;
        rest.agent.registry.remove(&s.id);
        rest.agent.views.forget(&s.id);
    }
}

/// Milliseconds to a tenth, as the document's examples show them.
fn round(ms: f64) -> f64 {
    (ms * 10.0).round() / 10.0
}
