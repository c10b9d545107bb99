//! The REST request bodies, through the real routes in process: the
//! input's first line is a session's creation body, the rest an operation's
//! body (breakpoint and continue) on a session whose interpreter cannot
//! start, so that a valid operation fails at the launch and no program runs.

use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use pairdbg::agent::Views;
use pairdbg::rest::{self, Allowed};
use pairdbg::session::Registry;
use tower::ServiceExt;

use super::workspace;

const HOST: &str = "localhost";

struct Served {
    rt: tokio::runtime::Runtime,
    router: Router,
    /// A session for the operations.
    id: String,
}

fn served() -> &'static Served {
    static SERVED: OnceLock<Served> = OnceLock::new();
    SERVED.get_or_init(|| {
        // A worker of its own runs the tasks that end a failed session
        // between inputs; on a current-thread runtime they waited for later
        // inputs to be driven, and piled up (gigabytes over a long run).
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let dir = workspace::dir();
        let not_python = dir.join("not-python");
        std::fs::write(&not_python, "not a program").expect("write");
        let router = rest::router(
            Registry::default(),
            &Views::default(),
            workspace::workspace(),
            Allowed {
                hosts: Arc::new(vec![HOST.into()]),
                origins: Arc::new(vec![]),
            },
        );
        let create = format!(
            r#"{{"entry":"prog.py","pythonPath":{}}}"#,
            serde_json::to_string(&not_python.display().to_string()).expect("json")
        );
        let (status, body) = rt.block_on(call(&router, Method::POST, "/sessions", create.into()));
        assert!(
            status.is_success(),
            "creating the operations' session: {body}"
        );
        let v: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        let id = v["sessionId"].as_str().expect("sessionId").to_string();
        Served { rt, router, id }
    })
}

async fn call(router: &Router, method: Method, uri: &str, body: Vec<u8>) -> (StatusCode, String) {
    let req = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, HOST)
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .expect("request");
    let resp = router.clone().oneshot(req).await.expect("infallible");
    let status = resp.status();
    let bytes = axum::body::to_bytes(resp.into_body(), 1 << 26)
        .await
        .unwrap_or_default();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

pub fn run(data: &[u8]) {
    let s = served();
    let (create, operation) = match data.iter().position(|b| *b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b""[..]),
    };
    s.rt.block_on(async {
        let (status, body) = call(&s.router, Method::POST, "/sessions", create.to_vec()).await;
        check(status, &body);
        if status.is_success()
            && let Some(id) = serde_json::from_str::<serde_json::Value>(&body)
                .ok()
                .and_then(|v| v["sessionId"].as_str().map(str::to_string))
        {
            let (status, body) = call(
                &s.router,
                Method::DELETE,
                &format!("/sessions/{id}"),
                vec![],
            )
            .await;
            check(status, &body);
        }
        for op in ["breakpoint", "continue"] {
            let uri = format!("/sessions/{}/{op}", s.id);
            let (status, body) = call(&s.router, Method::POST, &uri, operation.to_vec()).await;
            check(status, &body);
        }
    });
}

/// A refusal is an answer, never a server error, and says what was wrong.
fn check(status: StatusCode, body: &str) {
    assert!(
        !status.is_server_error() || body.contains("message"),
        "{status}: {body}"
    );
    assert!(!body.is_empty(), "{status} with no body");
}
