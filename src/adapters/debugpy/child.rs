//! debugpy's subprocesses: when a subprocess's debug server connects, the
//! adapter asks for a child session with `startDebugging`, whose
//! configuration names the adapter's own listener in `connect`. The child
//! is a new socket there that sends `attach` with the configuration as given.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

use serde_json::Value;

use crate::adapters::{AdapterError, ChildContext, ChildStart, Transport};

pub fn child_connection(
    ctx: &ChildContext<'_>,
    arguments: &Value,
) -> Result<ChildStart, AdapterError> {
    let bad = |what: &str| AdapterError::Unsupported(format!("debugpy's startDebugging {what}"));
    let config = arguments
        .get("configuration")
        .filter(|c| c.is_object())
        .ok_or_else(|| bad("has no configuration"))?;
    let request = match arguments.get("request").and_then(Value::as_str) {
        Some("launch") => "launch",
        Some("attach") | None => "attach",
        Some(other) => return Err(bad(&format!("asks for an unknown request {other:?}"))),
    };
    let host = config
        .pointer("/connect/host")
        .and_then(Value::as_str)
        .unwrap_or("127.0.0.1");
    let port = config
        .pointer("/connect/port")
        .and_then(Value::as_u64)
        .and_then(|p| u16::try_from(p).ok())
        .filter(|p| *p > 0)
        .ok_or_else(|| bad("names no connect.port"))?;
    let addr = resolve(host, port, ctx.remote_host.as_deref())?;
    let name = config
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| {
            let pid = config.get("subProcessId")?.as_u64()?;
            Some(format!("Subprocess {pid}"))
        })
        .unwrap_or_else(|| "Subprocess".into());
    Ok(ChildStart {
        transport: Transport::Tcp(addr),
        start: (request, config.clone()),
        name,
    })
}

/// The address to connect to: loopback, or the host of the remote attach
/// the session is; a reverse request never picks another machine alone.
fn resolve(host: &str, port: u16, remote_host: Option<&str>) -> Result<SocketAddr, AdapterError> {
    let refuse = || {
        AdapterError::Unsupported(format!(
            "debugpy asked for a child session at {host}:{port}, which is not this machine; \
             pairdbg connects child sessions only to loopback or to the host it attached to"
        ))
    };
    let allowed_remote = remote_host.is_some_and(|r| r.eq_ignore_ascii_case(host));
    let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) if host.eq_ignore_ascii_case("localhost") || allowed_remote => (host, port)
            .to_socket_addrs()
            .map_err(|e| AdapterError::NotFound(format!("cannot resolve {host}: {e}")))?
            .collect(),
        Err(_) => return Err(refuse()),
    };
    addrs
        .into_iter()
        .find(|a| a.ip().is_loopback() || allowed_remote)
        .ok_or_else(refuse)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::adapters::LaunchSpec;
    use serde_json::json;

    fn ctx<'a>(spec: &'a LaunchSpec, remote: Option<&str>) -> ChildContext<'a> {
        ChildContext {
            spec,
            parent_addr: None,
            remote_host: remote.map(str::to_string),
        }
    }

    #[test]
    fn a_subprocess_is_an_attach_to_the_adapters_listener_with_the_configuration_as_given() {
        let spec = LaunchSpec::for_workspace(std::path::Path::new("/tmp"));
        let args = json!({"request": "attach", "configuration": {
            "name": "Subprocess 24045", "subProcessId": 24045, "justMyCode": true,
            "connect": {"host": "127.0.0.1", "port": 44725}}});
        let c = child_connection(&ctx(&spec, None), &args).unwrap();
        assert_eq!(c.name, "Subprocess 24045");
        assert_eq!(c.start.0, "attach");
        assert_eq!(c.start.1, args["configuration"]);
        let Transport::Tcp(addr) = c.transport else {
            panic!("a TCP child")
        };
        assert_eq!(addr, "127.0.0.1:44725".parse().unwrap());
    }

    #[test]
    fn another_machine_is_refused_unless_the_session_attached_there() {
        let spec = LaunchSpec::for_workspace(std::path::Path::new("/tmp"));
        let args = json!({"request": "attach", "configuration": {
            "connect": {"host": "10.1.2.3", "port": 5678}}});
        let err = child_connection(&ctx(&spec, None), &args).err().unwrap();
        assert!(err.to_string().contains("not this machine"), "{err}");
        assert!(child_connection(&ctx(&spec, Some("10.1.2.3")), &args).is_ok());
        let no_port = json!({"configuration": {"connect": {"host": "127.0.0.1"}}});
        assert!(child_connection(&ctx(&spec, None), &no_port).is_err());
    }
}
