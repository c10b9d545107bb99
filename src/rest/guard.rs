//! Refuses a request whose Host or Origin is not this server's, so a web
//! page cannot reach the API through DNS rebinding or a cross-site request.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

use super::error::ApiError;
use axum::response::IntoResponse;

#[derive(Clone, Debug)]
pub struct Allowed {
    pub hosts: Arc<Vec<String>>,
    pub origins: Arc<Vec<String>>,
}

pub async fn check(State(allowed): State<Allowed>, req: Request, next: Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !allowed.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "Forbidden",
            format!("Host {host:?} is not this server's"),
        )
        .into_response();
    }
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        if !allowed
            .origins
            .iter()
            .any(|o| o.eq_ignore_ascii_case(origin))
        {
            return ApiError::new(
                StatusCode::FORBIDDEN,
                "Forbidden",
                format!("Origin {origin:?} may not use this server"),
            )
            .into_response();
        }
    }
    next.run(req).await
}
