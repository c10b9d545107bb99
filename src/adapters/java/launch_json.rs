//! vscode-java's launch.json words: for a launch, what `java` reads from
//! its environment (`classPaths` is CLASSPATH, `vmArgs` JDK_JAVA_OPTIONS);
//! for an attach, the JVM's JDWP address (`hostName`, `port`).

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

/// `hostName` and `port` of an attach configuration, checked.
pub fn attach(c: &Value) -> Result<(String, u16), String> {
    let host = match c.get("hostName") {
        Some(Value::String(h)) if !h.trim().is_empty() => h.trim().to_string(),
        Some(other) => {
            return Err(format!(
                "hostName: {other} is not a host name; give the JVM's host, e.g. \"127.0.0.1\""
            ));
        }
        None => {
            return Err("hostName: missing; give the JVM's host, e.g. \"127.0.0.1\"".to_string());
        }
    };
    // A number, or a string where `${env:PORT}` was substituted.
    let port = match c.get("port") {
        Some(Value::Number(n)) => n.as_u64(),
        Some(Value::String(p)) => p.trim().parse::<u64>().ok(),
        Some(_) => None,
        None => {
            return Err(
                "port: missing; give the JVM's JDWP port, as in its -agentlib:jdwp=...,address=HOST:PORT"
                    .to_string(),
            );
        }
    };
    match port {
        Some(p @ 1..=65535) => Ok((host, p as u16)),
        _ => Err(format!(
            "port: {} is not a port; give 1 to 65535",
            c.get("port").map(Value::to_string).unwrap_or_default()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_attach_reads_host_name_and_port() {
        let ok = attach(&json!({"hostName": "127.0.0.1", "port": 5005}));
        assert_eq!(ok, Ok(("127.0.0.1".to_string(), 5005)));
        let ok = attach(&json!({"hostName": "localhost", "port": "5006"}));
        assert_eq!(ok, Ok(("localhost".to_string(), 5006)));
        let e = attach(&json!({"port": 5005})).unwrap_err();
        assert!(e.starts_with("hostName: missing"), "{e}");
        let e = attach(&json!({"hostName": "h"})).unwrap_err();
        assert!(e.starts_with("port: missing"), "{e}");
        let e = attach(&json!({"hostName": "h", "port": 70000})).unwrap_err();
        assert_eq!(e, "port: 70000 is not a port; give 1 to 65535");
        let e = attach(&json!({"hostName": "h", "port": "x"})).unwrap_err();
        assert!(e.starts_with("port: \"x\" is not a port"), "{e}");
    }
}
