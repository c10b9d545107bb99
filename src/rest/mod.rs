//! The REST API of the reference Python debugging tool, over the same
//! engine as every other front end: sessions it starts are ordinary
//! sessions of the registry, which the TUI and MCP see and can drive.
//! A REST session stays idle, with no process, until its first operation.

mod body;
mod error;
mod guard;
pub mod model;
pub mod openapi;
mod read_locals;
mod reply;
mod routes;
pub mod run;
pub mod table;
mod traceback;
mod validation;

use std::sync::Arc;

use axum::Router;
use axum::middleware;
use axum::routing::{get, post};

use crate::agent::{Agent, Names, Views};
use crate::session::validate::Workspace;
use crate::session::{Origin, Registry};
use crate::viewport::ReadMore;

pub use guard::Allowed;

/// How REST spells the calls an error may suggest.
pub const NAMES: Names = Names {
    sessions: "GET /sessions/{sessionId}",
    start: "POST /sessions",
    end: "DELETE /sessions/{sessionId}",
    breakpoints: "GET /sessions/{sessionId}",
    wait: "GET /sessions/{sessionId}",
    pause: "DELETE /sessions/{sessionId}",
    note: "POST /sessions/{sessionId}/continue",
    record: "the terminal UI's record key (Ctrl-R)",
    more: ReadMore {
        locals: "GET /sessions/{sessionId}",
        locals_from: whole_state,
        stack: "GET /sessions/{sessionId}",
        watches: "GET /sessions/{sessionId}",
        source: "GET /sessions/{sessionId}",
    },
};

/// The API reads a session whole: there is no page to start from.
fn whole_state(_start: usize) -> String {
    "GET /sessions/{sessionId}".into()
}

pub struct Rest {
    pub agent: Agent,
    pub table: table::Table,
}

/// The API's routes on `registry`, refusing foreign hosts and origins.
pub fn router(registry: Registry, views: &Views, ws: Workspace, allowed: Allowed) -> Router {
    let views = Views::default().with_redaction(views.redacts());
    let rest = Arc::new(Rest {
        agent: Agent::new(registry, ws, views, &NAMES).speaking_for(Origin::Rest, &NAMES),
        table: table::Table::default(),
    });
    Router::new()
        .route("/sessions", post(routes::create))
        .route("/sessions/{sessionId}/breakpoint", post(routes::breakpoint))
        .route("/sessions/{sessionId}/continue", post(routes::resume))
        .route(
            "/sessions/{sessionId}",
            get(routes::get).delete(routes::delete),
        )
        .route("/openapi.yaml", get(openapi::yaml))
        .route("/openapi.json", get(openapi::json))
        .with_state(rest)
        .layer(middleware::from_fn_with_state(allowed, guard::check))
}
