//! The REST API's refusals: a status and a JSON body naming the field and
//! the limit, shaped like the document's `error` object.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::session::SessionError;

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    /// The error's type, as the document names Python's (`ValidationError`).
    pub kind: &'static str,
    pub message: String,
    pub field: Option<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            kind,
            message: message.into(),
            field: None,
        }
    }

    /// Bad input: 422, as a validating server answers it.
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        let message = message.into();
        ApiError {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            kind: "ValidationError",
            message: format!("{field}: {message}"),
            field: Some(field.to_string()),
        }
    }

    pub fn no_session(id: &str) -> Self {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "NotFound",
            format!("no session {id}; create one with POST /sessions"),
        )
    }

    pub fn busy(id: &str) -> Self {
        ApiError::new(
            StatusCode::CONFLICT,
            "SessionBusy",
            format!(
                "session {id} is running an operation; wait for its answer or GET /sessions/{id}"
            ),
        )
    }
}

impl From<SessionError> for ApiError {
    fn from(e: SessionError) -> Self {
        match e {
            SessionError::Invalid { field, message } => ApiError::invalid(&field, message),
            SessionError::NoSuchValue { field, path } => {
                ApiError::invalid(&field, format!("{path} does not exist"))
            }
            SessionError::TooManySessions(_) => ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "SessionLimitReached",
                format!("{e}; end one with DELETE /sessions/{{sessionId}}"),
            ),
            SessionError::ControlTaken => {
                ApiError::new(StatusCode::CONFLICT, "ControlTaken", e.to_string())
            }
            SessionError::State(_) => {
                ApiError::new(StatusCode::CONFLICT, "StateError", e.to_string())
            }
            other => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "DebuggerError",
                other.to_string(),
            ),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut error = json!({"type": self.kind, "message": self.message, "traceback": null});
        if let Some(f) = self.field {
            error["field"] = json!(f);
        }
        super::reply::json(self.status, &json!({ "error": error }))
    }
}
