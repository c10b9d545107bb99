//! The REST API end to end on real debugpy, with the document's examples:
//! a hit with locals, a run that completes without a hit, an error before
//! the breakpoint, and a run that outlasts the time limit.

mod common;

use std::time::{Duration, Instant};

use serde_json::json;

use common::rest::RestHost;

const CALC: &str = "\
def add(x, y):
    result = x + y
    return result


def scale(v):
    final_result = v * 1.25
    return final_result


def unused():
    return 0


total = add(10, 20)
print(scale(34))
";

const DIVIDE: &str = "\
def divide(a, b):
    return a / b


divide(1, 0)
print('never')
";

const FOREVER: &str = "\
import time
while True:
    time.sleep(0.05)
    if time.time() < 0:
        print('never')
";

#[tokio::test(flavor = "multi_thread")]
async fn a_breakpoint_hit_returns_locals_and_continue_reaches_the_next() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("src/calculator.py", CALC)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("src/calculator.py").await;
    let (status, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(
        state,
        json!({"status": "idle", "lastBreakpoint": null, "timings": null})
    );

    let (status, hit) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "src/calculator.py", "line": 3}),
        )
        .await;
    assert_eq!(status, 200, "{hit}");
    assert_eq!(hit["hit"], true, "{hit}");
    assert_eq!(hit["completed"], false);
    assert_eq!(hit["error"], json!(null));
    let file = hit["frameInfo"]["file"].as_str().unwrap();
    assert!(file.ends_with("/src/calculator.py"), "{hit}");
    assert!(std::path::Path::new(file).is_absolute(), "{hit}");
    assert_eq!(hit["frameInfo"]["line"], 3);
    for (name, repr) in [("x", "10"), ("y", "20"), ("result", "30")] {
        assert_eq!(
            hit["locals"][name],
            json!({"type": "int", "repr": repr, "isTruncated": false, "tree": {"kind": "atom", "text": repr}}),
            "{hit}"
        );
    }

    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "paused", "{state}");
    assert_eq!(
        state["lastBreakpoint"],
        json!({"file": "src/calculator.py", "line": 3, "hitCount": 1})
    );
    let last = state["timings"]["lastRunMs"].as_f64().unwrap();
    assert!(last > 0.0, "{state}");
    assert_eq!(state["timings"]["totalCpuTimeMs"].as_f64().unwrap(), last);

    let (status, next) = host
        .post(
            &format!("/sessions/{id}/continue"),
            json!({"file": "src/calculator.py", "line": 8}),
        )
        .await;
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["hit"], true, "{next}");
    assert_eq!(next["frameInfo"]["line"], 8);
    assert_eq!(
        next["locals"]["final_result"],
        json!({"type": "float", "repr": "42.5", "isTruncated": false, "tree": {"kind": "atom", "text": "42.5"}}),
        "{next}"
    );

    let (status, done) = host
        .post(
            &format!("/sessions/{id}/continue"),
            json!({"file": "src/calculator.py", "line": 8}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        done,
        json!({"hit": false, "completed": true, "frameInfo": null, "locals": null, "error": null})
    );
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "completed", "{state}");
    assert_eq!(state["lastBreakpoint"]["line"], 8, "{state}");

    let (status, ended) = host.delete(&format!("/sessions/{id}")).await;
    assert_eq!((status, ended), (200, json!({"ended": true})));
    let (status, gone) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(status, 404, "{gone}");
    assert!(gone["error"]["message"].as_str().unwrap().contains(&id));
    host.stop().await;
}

const SHOP: &str = "\
class Item:
    def __init__(self, id, name):
        self.id = id
        self.name = name


items = [Item(1, 'hammer'), Item(2, 'saw'), Item(3, 'drill')]
stock = {'hammer': 4, 'saw': 0}
codes = list(range(60))
print(len(items), stock, codes)
";

#[tokio::test(flavor = "multi_thread")]
async fn a_local_comes_with_its_value_tree() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("src/shop.py", SHOP)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("src/shop.py").await;
    let (status, hit) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "src/shop.py", "line": 10}),
        )
        .await;
    assert_eq!(status, 200, "{hit}");
    assert_eq!(hit["hit"], true, "{hit}");
    let items = &hit["locals"]["items"];
    assert_eq!(items["type"], "list", "{items}");
    let tree = &items["tree"];
    assert_eq!(tree["kind"], "sequence", "{tree}");
    assert_eq!(tree["count"], 3, "{tree}");
    assert_eq!(tree["cut"], false, "{tree}");
    let first = &tree["items"][0];
    assert_eq!(first["kind"], "object", "{tree}");
    assert_eq!(first["type"], "Item", "{tree}");
    let fields: Vec<(&str, &str)> = first["fields"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| Some((f["name"].as_str()?, f["value"]["text"].as_str()?)))
        .collect();
    assert_eq!(fields, [("id", "1"), ("name", "hammer")], "{tree}");
    let stock = &hit["locals"]["stock"]["tree"];
    assert_eq!(stock["kind"], "map", "{stock}");
    assert_eq!(stock["entries"][1]["key"]["text"], "saw", "{stock}");
    assert_eq!(
        stock["entries"][1]["value"],
        json!({"kind": "atom", "text": "0"}),
        "{stock}"
    );
    // Fifty items at most, as the repr's own limit, and the count of all.
    let codes = &hit["locals"]["codes"]["tree"];
    assert_eq!(codes["count"], 60, "{codes}");
    assert_eq!(codes["items"].as_array().map(Vec::len), Some(50), "{codes}");
    assert_eq!(codes["cut"], true, "{codes}");
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_program_that_ends_before_the_breakpoint_completes() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("src/calculator.py", CALC)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("src/calculator.py").await;
    // Nothing calls `unused`, so the program ends.
    let (status, body) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "src/calculator.py", "line": 12}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"hit": false, "frameInfo": null, "locals": null, "completed": true, "error": null})
    );
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "completed", "{state}");
    assert_eq!(state["lastBreakpoint"], json!(null));
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_error_before_the_breakpoint_comes_back_with_its_traceback() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("src/calculator.py", DIVIDE)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("src/calculator.py").await;
    let (status, body) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "src/calculator.py", "line": 6}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["hit"], false, "{body}");
    assert_eq!(body["completed"], false);
    assert_eq!(body["frameInfo"], json!(null));
    assert_eq!(body["locals"], json!(null));
    assert_eq!(body["error"]["type"], "ZeroDivisionError", "{body}");
    assert_eq!(body["error"]["message"], "division by zero");
    let traceback = body["error"]["traceback"].as_str().unwrap();
    assert!(
        traceback.starts_with("Traceback (most recent call last):\n"),
        "{traceback}"
    );
    assert!(
        traceback.contains("calculator.py\", line 2, in divide\n    return a / b\n"),
        "{traceback}"
    );
    assert!(
        traceback.ends_with("ZeroDivisionError: division by zero"),
        "{traceback}"
    );
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "error", "{state}");
    let left = common::wait_gone("calculator.py", Duration::from_secs(10)).await;
    assert!(
        left.is_empty(),
        "the failed run outlived its error: {left:?}"
    );
    host.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_run_that_outlasts_twenty_seconds_times_out_and_is_stopped() {
    if !common::debugpy_available() {
        return;
    }
    let ws = common::workspace(&[("forever.py", FOREVER)]);
    let host = RestHost::start(ws.path()).await;
    let id = host.session("forever.py").await;
    let started = Instant::now();
    let (status, body) = host
        .post(
            &format!("/sessions/{id}/breakpoint"),
            json!({"file": "forever.py", "line": 5}),
        )
        .await;
    let took = started.elapsed();
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["error"]["type"], "TimeoutError", "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().contains("20 s"),
        "{body}"
    );
    assert_eq!(body["hit"], false);
    assert_eq!(body["completed"], false);
    assert!(
        took >= Duration::from_secs(20) && took < Duration::from_secs(30),
        "{took:?}"
    );
    let (_, state) = host.get(&format!("/sessions/{id}")).await;
    assert_eq!(state["status"], "error", "{state}");
    let left = common::wait_gone("forever.py", Duration::from_secs(10)).await;
    assert!(left.is_empty(), "the timed-out run kept running: {left:?}");
    host.stop().await;
}
