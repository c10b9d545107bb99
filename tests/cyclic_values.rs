//! Values that contain themselves, through real adapters and a real MCP
//! client: a Python list and dict holding themselves, a C node pointing
//! at itself (lldb-dap and gdb), a JavaScript object holding itself. The
//! stop reads them, and opening them twenty levels down answers each
//! time with the same value, never a walk that goes round for ever.

mod common;

use common::native::{build_c, gdb_available, lldb_available};
use common::*;
use serde_json::json;

/// `path` opened one more level at a time: each level answers, and names
/// the value it holds again.
async fn open_round(mcp: &Mcp, first: &str, step: &str, holds: &str, levels: usize) {
    let mut path = first.to_string();
    for level in 0..levels {
        let v = mcp
            .ok("debug_variables", json!({"expand": path, "count": 20}))
            .await;
        assert!(v.contains(holds), "level {level}, `{path}`:\n{v}");
        path.push_str(step);
    }
}

const PY: &str = "\
def main():
    ring = [1]
    ring.append(ring)
    table = {'name': 'loop'}
    table['self'] = table
    print(len(ring), len(table))


main()
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_containers_that_hold_themselves_read_and_open_without_end() {
    if !debugpy_available() {
        return;
    }
    let ws = workspace(&[("ring.py", PY)]);
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "ring.py", "breakpoints": [{"file": "ring.py", "line": 6}]}),
        )
        .await;
    // Each level reads as what it is, down to the depth a stop reads.
    assert_eq!(
        local(&v, "ring").as_deref(),
        Some("[1, [1, <list: 2 items>]]"),
        "{v}"
    );
    assert_eq!(
        local(&v, "table").as_deref(),
        Some("{\"name\": \"loop\", \"self\": {\"name\": \"loop\", ...} (2 items)}"),
        "{v}"
    );
    open_round(&mcp, "ring", "[1]", "[1]", 20).await;
    open_round(&mcp, "table", "['self']", "\"loop\"", 20).await;
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "ring[1][1][1] is ring"}),
        )
        .await;
    assert!(e.contains("= True"), "{e}");
    mcp.close().await;
}

const C: &str = "\
#include <stdio.h>

struct node {
    int id;
    struct node *next;
};

int main(void) {
    struct node n = {7, 0};
    n.next = &n;
    printf(\"%d\\n\", n.next->next->id);
    return 0;
}
";

async fn c_node_on(adapter: &str) {
    let ws = workspace(&[("node.c", C)]);
    build_c(&ws.path().join("node.c"), &ws.path().join("node"));
    let mcp = mcp_in(ws.path()).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "node", "adapter": adapter,
                   "breakpoints": [{"file": "node.c", "line": 11}]}),
        )
        .await;
    let n = local(&v, "n").unwrap_or_else(|| panic!("no n in:\n{v}"));
    assert!(n.contains("id") && n.contains('7'), "{v}");
    open_round(&mcp, "n", ".next", "id", 20).await;
    let e = mcp
        .ok(
            "debug_evaluate",
            json!({"expression": "n.next->next->next->next->id"}),
        )
        .await;
    assert!(e.contains("= 7"), "{e}");
    let v = mcp.ok("debug_step", json!({"kind": "over"})).await;
    assert!(v.contains(" at node.c:12"), "{v}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_node_that_points_at_itself_opens_level_after_level_on_lldb() {
    if !lldb_available() {
        return;
    }
    c_node_on("lldb-dap").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_c_node_that_points_at_itself_opens_level_after_level_on_gdb() {
    if !gdb_available() {
        return;
    }
    c_node_on("gdb").await;
}

const JS: &str = "\
const box = { name: 'loop' };
box.self = box;
const ring = [1];
ring.push(ring);
console.log(box.name, ring.length);
";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_javascript_object_that_holds_itself_reads_and_opens_without_end() {
    let Some((_ws, mcp)) = js_mcp(&[("ring.js", JS)]).await else {
        return;
    };
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "ring.js", "breakpoints": [{"file": "ring.js", "line": 5}]}),
        )
        .await;
    let b = local(&v, "box").unwrap_or_else(|| panic!("no box in:\n{v}"));
    assert!(b.contains("loop"), "{v}");
    open_round(&mcp, "box", ".self", "\"loop\"", 20).await;
    open_round(&mcp, "ring", "[1]", "1", 20).await;
    mcp.close().await;
}
