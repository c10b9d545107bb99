//! The tool list an agent pays for on every conversation: within its token
//! budget, every tool annotated with what it does to the program, and the
//! schemas complete (no field lost to compaction).

mod common;

use common::*;
use serde_json::Value;

/// Bytes / 4 of the tools/list result: 3,000 until debug_record and the
/// moves back (about 80 tokens) came.
const BUDGET_TOKENS: usize = 3_100;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tool_list_fits_its_budget_and_says_what_each_tool_does() {
    let ws = workspace(&[("p.py", "x = 1\n")]);
    let mcp = mcp_in(ws.path()).await;
    let list = mcp.client.list_tools(None).await.expect("tools/list");
    let bytes = serde_json::to_string(&list).expect("json").len();
    assert!(
        bytes / 4 <= BUDGET_TOKENS,
        "the tool list is {} tokens ({bytes} bytes); the budget is {BUDGET_TOKENS}",
        bytes / 4
    );
    let tools: Vec<Value> = list
        .tools
        .iter()
        .map(|t| serde_json::to_value(t).expect("tool"))
        .collect();
    let named = |n: &str| {
        tools
            .iter()
            .find(|t| t["name"] == n)
            .unwrap_or_else(|| panic!("{n} is listed"))
            .clone()
    };
    // The hints as a client reads them: a missing one is the spec's
    // default (destructive, not idempotent).
    let hint = |a: &serde_json::Value, name: &str, default: bool| -> serde_json::Value {
        match &a[name] {
            serde_json::Value::Null => default.into(),
            v => v.clone(),
        }
    };
    for t in &tools {
        let a = &t["annotations"];
        assert!(a.is_object(), "{} has annotations: {t}", t["name"]);
        assert!(
            a["readOnlyHint"] == true || a.get("readOnlyHint").is_none(),
            "{}: {a}",
            t["name"]
        );
        for name in ["destructiveHint", "idempotentHint"] {
            assert!(
                a[name].is_null() || a[name].is_boolean(),
                "{}: {name} is a boolean where given: {a}",
                t["name"]
            );
        }
        assert!(
            t["inputSchema"].get("$defs").is_none(),
            "{}: definitions are inlined",
            t["name"]
        );
    }
    for n in [
        "debug_status",
        "debug_variables",
        "breakpoint_list",
        "debug_find",
        "exception_get_context",
    ] {
        assert_eq!(named(n)["annotations"]["readOnlyHint"], true, "{n}");
    }
    for n in [
        "debug_terminate",
        "breakpoint_remove",
        "debug_restart",
        "debug_set_variable",
    ] {
        let a = named(n)["annotations"].clone();
        assert_eq!(a["readOnlyHint"], serde_json::Value::Null, "{n}");
        assert_eq!(hint(&a, "destructiveHint", true), true, "{n}");
    }
    for n in ["debug_step", "debug_continue", "breakpoint_set"] {
        let a = named(n)["annotations"].clone();
        assert_eq!(
            (
                hint(&a, "destructiveHint", true),
                hint(&a, "idempotentHint", false)
            ),
            (false.into(), false.into()),
            "{n}"
        );
    }
    // Compaction keeps every field: a field named `format` is a field, and
    // a launch's breakpoints keep their shape.
    let status = named("debug_status");
    assert_eq!(
        status["inputSchema"]["properties"]["format"]["enum"],
        serde_json::json!(["text", "json"]),
        "{status}"
    );
    let launch = named("debug_launch");
    let bp = &launch["inputSchema"]["properties"]["breakpoints"]["items"]["properties"];
    assert_eq!(bp["line"]["type"], "integer", "{launch}");
    assert_eq!(
        bp["hit_count"]["type"],
        serde_json::json!(["integer", "string"]),
        "{launch}"
    );
    // session_id is taken by every tool, though no schema repeats it.
    let out = mcp
        .ok("debug_sessions", serde_json::json!({"session_id": "s1"}))
        .await;
    assert!(!out.contains("unknown argument"), "{out}");
    mcp.close().await;
}
