//! The API's own OpenAPI document: the reference's YAML as it is, and the
//! same document as JSON.

use std::sync::LazyLock;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

pub const YAML: &str = include_str!("openapi.yaml");

static JSON: LazyLock<Result<String, String>> = LazyLock::new(|| {
    serde_yaml_ng::from_str::<serde_json::Value>(YAML)
        .map_err(|e| e.to_string())
        .and_then(|v| serde_json::to_string_pretty(&v).map_err(|e| e.to_string()))
});

pub async fn yaml() -> Response {
    ([(header::CONTENT_TYPE, "application/yaml")], YAML).into_response()
}

pub async fn json() -> Response {
    match &*JSON {
        Ok(text) => ([(header::CONTENT_TYPE, "application/json")], text.clone()).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.clone()).into_response(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_json_is_the_yaml_converted() {
        let json: serde_json::Value =
            serde_json::from_str(super::JSON.as_ref().expect("converts")).unwrap();
        assert_eq!(json["openapi"], "3.0.3");
        assert!(json["paths"]["/sessions/{sessionId}/breakpoint"]["post"].is_object());
    }
}
