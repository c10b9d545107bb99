//! The REST API's validation rules and limits, one test each: strict types
//! and no extra fields, project-relative paths, argument and environment
//! limits, the safe repr, the output cap, the session limit, and who may
//! call it.

mod common;

use serde_json::{Value, json};

use common::rest::RestHost;

const ADD: &str = common::ADD_PROGRAM;

fn message(body: &Value) -> String {
    body["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn types_are_strict_and_extra_fields_are_refused() {
    let ws = common::workspace(&[("add.py", ADD)]);
    let host = RestHost::start(ws.path()).await;
    let cases = [
        (json!({"entry": 1}), "entry", "invalid type"),
        (
            json!({"entry": "add.py", "debug": true}),
            "debug",
            "unknown field",
        ),
        (
            json!({"entry": "add.py", "args": "-v"}),
            "args",
            "invalid type",
        ),
        (
            json!({"entry": "add.py", "args": [1]}),
            "args[0]",
            "invalid type",
        ),
        (
            json!({"entry": "add.py", "env": {"A": 1}}),
            "env.A",
            "invalid type",
        ),
        (
            json!({"entry": "add.py", "pythonPath": null}),
            "pythonPath",
            "invalid type",
        ),
        (json!({}), "entry", "missing field"),
    ];
    for (body, field, what) in cases {
        let (status, reply) = host.post("/sessions", body.clone()).await;
        assert_eq!(status, 422, "{body} -> {reply}");
        assert_eq!(reply["error"]["type"], "ValidationError", "{reply}");
        let m = message(&reply);
        assert!(m.contains(field) && m.contains(what), "{body} -> {m}");
    }
    let id = host.session("add.py").await;
    let path = format!("/sessions/{id}/breakpoint");
    for body in [
        r#"{"file": "add.py", "line": "2"}"#,
        r#"{"file": "add.py", "line": 2.0}"#,
        r#"{"file": "add.py", "line": true}"#,
        r#"{"file": "add.py", "line": 2, "condition": "x"}"#,
        r#"{"file": ["add.py"], "line": 2}"#,
        r#"{"file": "add.py", "line": 2"#,
    ] {
        let (status, reply) = host.post_raw(&path, body).await;
        assert_eq!(status, 422, "{body} -> {reply}");
    }
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(
        state["status"], "idle",
        "a refused body must not start a run"
    );
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn paths_are_project_relative_existing_and_lines_inside_them() {
    let ws = common::workspace(&[("add.py", ADD)]);
    let outside = tempfile::NamedTempFile::new().unwrap();
    let host = RestHost::start(ws.path()).await;
    for (entry, says) in [
        (outside.path().to_str().unwrap(), "absolute"),
        ("../add.py", "`..`"),
        ("sub/../add.py", "`..`"),
        ("missing.py", "does not exist"),
        ("", "empty"),
    ] {
        let (status, reply) = host.post("/sessions", json!({ "entry": entry })).await;
        assert_eq!(status, 422, "{entry} -> {reply}");
        let m = message(&reply);
        assert!(
            m.starts_with("entry: ") && m.contains(says),
            "{entry} -> {m}"
        );
    }
    let id = host.session("add.py").await;
    let path = format!("/sessions/{id}/breakpoint");
    for (file, line, field, says) in [
        ("/etc/passwd", 1, "file", "absolute"),
        ("../add.py", 1, "file", "`..`"),
        ("nope.py", 1, "file", "does not exist"),
        (".", 1, "file", "not a file"),
        ("add.py", 0, "line", "1-based"),
        ("add.py", -3, "line", "1-based"),
        ("add.py", 9, "line", "has 8 lines"),
    ] {
        let (status, reply) = host.post(&path, json!({"file": file, "line": line})).await;
        assert_eq!(status, 422, "{file}:{line} -> {reply}");
        let m = message(&reply);
        assert!(
            m.starts_with(&format!("{field}: ")) && m.contains(says),
            "{file}:{line} -> {m}"
        );
    }
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn arguments_and_environment_have_limits() {
    let ws = common::workspace(&[("add.py", ADD)]);
    let host = RestHost::start(ws.path()).await;
    let env = |n: usize, key: usize, value: usize| -> Value {
        (0..n)
            .map(|i| {
                (
                    format!("K{i}{}", "k".repeat(key.saturating_sub(2))),
                    json!("v".repeat(value)),
                )
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    };
    let ok = [
        json!({"entry": "add.py", "args": vec!["a"; 20]}),
        json!({"entry": "add.py", "args": ["a".repeat(512)]}),
        json!({"entry": "add.py", "env": env(50, 2, 1)}),
        json!({"entry": "add.py", "env": {"K".repeat(64): "v".repeat(1024)}}),
    ];
    for body in ok {
        let (status, reply) = host.post("/sessions", body).await;
        assert_eq!(status, 200, "{reply}");
    }
    let refused = [
        (
            json!({"entry": "add.py", "args": vec!["a"; 21]}),
            "args",
            "limit is 20",
        ),
        (
            json!({"entry": "add.py", "args": ["a".repeat(513)]}),
            "args[0]",
            "limit is 512",
        ),
        (
            json!({"entry": "add.py", "env": env(51, 2, 1)}),
            "env",
            "limit is 50",
        ),
        (
            json!({"entry": "add.py", "env": {"K".repeat(65): "v"}}),
            "env key",
            "limit is 64",
        ),
        (
            json!({"entry": "add.py", "env": {"K": "v".repeat(1025)}}),
            "env[K]",
            "limit is 1024",
        ),
    ];
    for (body, field, limit) in refused {
        let (status, reply) = host.post("/sessions", body).await;
        assert_eq!(status, 422, "{reply}");
        let m = message(&reply);
        assert!(m.starts_with(field) && m.contains(limit), "{m}");
    }
    host.stop().await;
}

const VALUES: &str = "\
def look():
    long_text = 'x' * 1000
    many = list(range(120))
    nested = [[[[1]]]]
    small = {'a': [1, 2]}
    return long_text, many, nested, small


look()
";

#[tokio::test(flavor = "multi_thread")]
async fn locals_are_cut_to_depth_two_fifty_items_and_256_characters() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("values.py", VALUES)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("values.py").await;
    let (status, hit) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "values.py", "line": 6}),
        )
        .await;
    assert_eq!(status, 200, "{hit}");
    let locals = &hit["locals"];

    let text = &locals["long_text"];
    assert_eq!(
        text["repr"].as_str().unwrap().chars().count(),
        256,
        "{text}"
    );
    assert_eq!(text["isTruncated"], true);

    let many = &locals["many"];
    let items = many["children"].as_array().unwrap();
    let numbered = items.iter().filter(|c| c["name"] != "len()").count();
    assert_eq!(numbered, 50, "{many}");
    assert_eq!(
        items[0],
        json!({"name": "0", "type": "int", "repr": "0", "isTruncated": false})
    );
    assert_eq!(many["isTruncated"], true);

    // nested -> [0] -> [0][0] is as deep as it goes; that one is cut.
    let nested = &locals["nested"];
    let level1 = &nested["children"][0];
    let level2 = &level1["children"][0];
    assert_eq!(level2["repr"], "[[1]]", "{nested}");
    assert!(level2.get("children").is_none(), "{nested}");
    assert_eq!(level2["isTruncated"], true);
    assert_eq!(nested["isTruncated"], true, "a cut inside shows at the top");

    let small = &locals["small"];
    assert_eq!(small["isTruncated"], false, "{small}");
    let a = &small["children"][0];
    assert_eq!(a["name"], "'a'", "{small}");
    assert_eq!(a["children"][1]["repr"], "2", "{small}");
    host.stop().await;
}

const LOUD: &str = "\
import sys
chunk = 'x' * 1023 + '\\n'
for _ in range(11 * 1024):
    sys.stdout.write(chunk)
sys.stdout.flush()
print('done')
";

#[tokio::test(flavor = "multi_thread")]
async fn a_session_may_write_ten_megabytes_of_output() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("loud.py", LOUD)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("loud.py").await;
    let (status, body) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "loud.py", "line": 6}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["error"]["type"], "OutputLimitExceeded", "{body}");
    assert!(message(&body).contains("10 MB"), "{body}");
    assert_eq!(body["hit"], false);
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "error", "{state}");
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_thousand_and_first_session_is_refused_until_one_ends() {
    let ws = common::workspace(&[("add.py", ADD)]);
    let host = RestHost::start(ws.path()).await;
    let mut ids = vec![];
    for _ in 0..1000 {
        ids.push(host.session("add.py").await);
    }
    let (status, reply) = host.post("/sessions", json!({"entry": "add.py"})).await;
    assert_eq!(status, 429, "{reply}");
    assert_eq!(reply["error"]["type"], "SessionLimitReached");
    let m = message(&reply);
    assert!(m.contains("limit is 1000") && m.contains("DELETE"), "{m}");
    let (status, _) = host.delete(&format!("/sessions/{}", ids[0])).await;
    assert_eq!(status, 200);
    host.session("add.py").await;
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn only_the_token_holder_on_this_host_may_call() {
    let ws = common::workspace(&[("add.py", ADD)]);
    let host = RestHost::start(ws.path()).await;
    let url = format!("{}/sessions", host.base);
    let body = json!({"entry": "add.py"});
    let no_token = host.client.post(&url).json(&body).send().await.unwrap();
    assert_eq!(no_token.status(), 401);
    let wrong = host
        .client
        .post(&url)
        .bearer_auth("not-the-token")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 401);
    let foreign_host = host
        .client
        .post(&url)
        .bearer_auth(&host.token)
        .header("host", "evil.example:80")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(foreign_host.status(), 403);
    let foreign_origin = host
        .client
        .post(&url)
        .bearer_auth(&host.token)
        .header("origin", "http://evil.example")
        .json(&body)
        .send()
        .await
        .unwrap();
    assert_eq!(foreign_origin.status(), 403);
    let (status, _) = host.post("/sessions", body).await;
    assert_eq!(status, 200, "the token holder on this host is served");
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_api_serves_the_reference_document_as_yaml_and_json() {
    let ws = common::workspace(&[("add.py", ADD)]);
    let host = RestHost::start(ws.path()).await;
    let (status, yaml) = host.get("/openapi.yaml").await;
    assert_eq!(status, 200);
    let yaml = yaml.as_str().expect("YAML text").to_string();
    let embedded =
        std::fs::read_to_string(common::repo_root().join("src/rest/openapi.yaml")).unwrap();
    assert_eq!(yaml, embedded);
    let reference = common::repo_root().join("../shared/reference/python-debug-tool-openapi.yaml");
    match std::fs::read_to_string(&reference) {
        Ok(r) => assert_eq!(
            embedded, r,
            "the served document drifted from the reference"
        ),
        Err(_) => eprintln!(
            "\n!!!!! NOTE: the reference document is not beside the repository; compared with the embedded copy only !!!!!\n"
        ),
    }
    let (status, doc) = host.get("/openapi.json").await;
    assert_eq!(status, 200);
    assert_eq!(doc["openapi"], "3.0.3");
    let statuses = &doc["paths"]["/sessions/{sessionId}"]["get"]["responses"]["200"]["content"]["application/json"]
        ["schema"]["properties"]["status"]["enum"];
    assert_eq!(
        statuses,
        &json!(["idle", "running", "paused", "completed", "error"])
    );
    host.stop().await;
}
