//! vscode-java's launch.json words for what `java` reads from its
//! environment: `classPaths` is CLASSPATH, `vmArgs` JDK_JAVA_OPTIONS.

use serde_json::Value;

pub fn env(c: &Value) -> Vec<(String, String)> {
    let words = |v: &Value| match v {
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Value::String(s) => vec![s.clone()],
        _ => vec![],
    };
    let mut env = vec![];
    if let Some(cp) = c.get("classPaths").map(words).filter(|w| !w.is_empty()) {
        env.push(("CLASSPATH".to_string(), cp.join(":")));
    }
    if let Some(vm) = c.get("vmArgs").map(words).filter(|w| !w.is_empty()) {
        env.push(("JDK_JAVA_OPTIONS".to_string(), vm.join(" ")));
    }
    env
}
