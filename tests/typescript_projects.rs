//! A TypeScript project laid out as projects are: sources under src/, a
//! tsconfig.json that extends a base (comments and trailing commas
//! included) whose `outDir` is dist/. Launched as its `.ts`, it runs the
//! JavaScript tsc wrote to dist/, and stops read in the `.ts` files, a
//! module in another folder included. Before it is compiled, the launch
//! says exactly what to run, and no breakpoint shows js-debug's untranslated
//! message key.

mod common;

use common::*;
use serde_json::json;

const BASE: &str = r#"{
  // shared by every package
  "compilerOptions": {
    "target": "ES2020",
    "module": "commonjs",
    "sourceMap": true,
    "outDir": "dist",
  },
}
"#;
const CONFIG: &str = r#"{
  "extends": "./tsconfig.base.json",
  "compilerOptions": { "rootDir": "src" },
  "include": ["src"]
}
"#;
const PRICE: &str = "\
export interface Item { name: string; qty: number; cents: number }

export function total(items: Item[]): number {
  let sum = 0;
  for (const it of items) {
    sum += it.qty * it.cents;
  }
  return sum;
}
";
const MAIN: &str = "\
import { total, Item } from \"./lib/price\";

function main(): void {
  const items: Item[] = [
    { name: \"hammer\", qty: 2, cents: 1250 },
    { name: \"nails\", qty: 100, cents: 3 },
  ];
  const t = total(items);
  console.log(`total ${t}`);
}

main();
";

fn project() -> tempfile::TempDir {
    workspace(&[
        ("tsconfig.base.json", BASE),
        ("tsconfig.json", CONFIG),
        ("src/lib/price.ts", PRICE),
        ("src/main.ts", MAIN),
    ])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_project_with_an_out_dir_runs_its_emitted_javascript_and_stops_in_ts() {
    let (Some(data), Some(tsc)) = (js_debug_available(), tsc_available()) else {
        return;
    };
    let ws = project();
    let st = std::process::Command::new(&tsc)
        .args(["-p", "."])
        .current_dir(ws.path())
        .status()
        .unwrap();
    assert!(st.success(), "tsc compiles the project");
    assert!(ws.path().join("dist/lib/price.js.map").is_file());

    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let v = mcp
        .ok(
            "debug_launch",
            json!({"program": "src/main.ts",
                   "breakpoints": [{"file": "src/lib/price.ts", "line": 6}]}),
        )
        .await;
    assert!(
        v.contains("Runs dist/main.js, compiled from src/main.ts by tsconfig.json"),
        "{v}"
    );
    assert!(
        v.contains("── STOPPED at src/lib/price.ts:6 (total) ──"),
        "{v}"
    );
    assert!(v.contains("src/main.ts:8       main()"), "{v}");
    assert!(v.contains("sum += it.qty * it.cents;"), "{v}");
    assert_eq!(local(&v, "sum").as_deref(), Some("0"), "{v}");
    assert!(!v.contains("main.js:"), "a frame in the JavaScript: {v}");

    let v = mcp.ok("debug_continue", json!({})).await;
    assert_eq!(local(&v, "sum").as_deref(), Some("2500"), "{v}");
    let v = mcp.ok("debug_continue", json!({})).await;
    assert!(v.contains("EXITED with code 0"), "{v}");
    let out = mcp.ok("debug_output", json!({})).await;
    assert!(out.contains("total 2800"), "{out}");
    mcp.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn before_it_is_compiled_the_launch_says_what_to_run() {
    let Some(data) = js_debug_available() else {
        return;
    };
    let ws = project();
    let mcp = mcp_with_env(ws.path(), &[], &[("XDG_DATA_HOME", &data)]).await;
    let (v, _) = mcp
        .call(
            "debug_launch",
            json!({"program": "src/main.ts",
                   "breakpoints": [{"file": "src/lib/price.ts", "line": 6}]}),
        )
        .await;
    assert!(
        v.contains("src/main.ts is not compiled: tsconfig.json writes its JavaScript to dist/. Run `npx tsc -p .` and launch again"),
        "{v}"
    );
    assert!(!v.contains("provisionalBreakpoint"), "{v}");
    let list = mcp.ok("breakpoint_list", json!({})).await;
    assert!(!list.contains("provisionalBreakpoint"), "{list}");
    mcp.close().await;
}
