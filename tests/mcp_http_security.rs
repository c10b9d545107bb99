//! The TUI's MCP endpoint: loopback only, a bearer token, and no driving
//! from a web page (Origin) or a rebound DNS name (Host).

use std::io::{Read, Write};
use std::net::TcpStream;

use pairdbg::mcp::http;
use pairdbg::session::Registry;
use pairdbg::session::validate::Workspace;

fn post(addr: std::net::SocketAddr, headers: &[(&str, &str)]) -> u16 {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#;
    let mut req = format!(
        "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    let has_host = headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host"));
    if !has_host {
        req.push_str(&format!("Host: 127.0.0.1:{}\r\n", addr.port()));
    }
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(req.as_bytes()).expect("write");
    let mut resp = String::new();
    let _ = s.read_to_string(&mut resp);
    resp.split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_origins_and_hosts_are_checked_and_only_loopback_listens() {
    let dir = tempfile::tempdir().unwrap();
    let ws = Workspace::new(dir.path(), false);
    let ep = http::serve(Registry::default(), Default::default(), ws, None)
        .await
        .expect("serve");
    assert!(ep.addr.ip().is_loopback(), "{}", ep.addr);
    assert!(ep.url.starts_with("http://127.0.0.1:"), "{}", ep.url);
    let addr = ep.addr;
    let bearer = format!("Bearer {}", ep.token);
    let token = bearer.clone();
    let codes = tokio::task::spawn_blocking(move || {
        (
            post(addr, &[]),
            post(addr, &[("Authorization", "Bearer wrong")]),
            post(
                addr,
                &[("Authorization", &token), ("Origin", "http://evil.example")],
            ),
            post(addr, &[("Authorization", &token), ("Host", "evil.example")]),
            post(
                addr,
                &[
                    ("Authorization", &token),
                    ("Origin", &format!("http://127.0.0.1:{}", addr.port())),
                ],
            ),
            post(addr, &[("Authorization", &token)]),
        )
    })
    .await
    .unwrap();
    assert_eq!(codes.0, 401, "no token");
    assert_eq!(codes.1, 401, "a wrong token");
    assert_eq!(codes.2, 403, "a web page's Origin");
    assert!(
        codes.3 == 403 || codes.3 == 400,
        "a rebound Host: {}",
        codes.3
    );
    assert_eq!(codes.4, 200, "its own origin");
    assert_eq!(codes.5, 200, "no Origin at all (a local client)");

    // The listening socket is bound to 127.0.0.1, not to every interface.
    let port_hex = format!("{:04X}", addr.port());
    let tcp = std::fs::read_to_string("/proc/net/tcp").unwrap();
    let listening: Vec<&str> = tcp
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .is_some_and(|a| a.ends_with(&format!(":{port_hex}")))
                && l.split_whitespace().nth(3) == Some("0A")
        })
        .collect();
    assert!(!listening.is_empty(), "the port listens");
    for l in listening {
        assert!(
            l.split_whitespace()
                .nth(1)
                .unwrap()
                .starts_with("0100007F:"),
            "bound beyond loopback: {l}"
        );
    }
    let _ = bearer;
}

#[test]
fn the_discovery_file_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let d = pairdbg::agent::discovery::Discovery {
        url: "http://127.0.0.1:1/mcp".into(),
        token: "t".into(),
        pid: std::process::id(),
        workspace: dir.path().to_path_buf(),
        publisher: Default::default(),
    };
    let published = pairdbg::agent::discovery::publish(&d).expect("publish");
    let path = pairdbg::agent::discovery::path_for(dir.path(), std::process::id()).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let dir_mode = std::fs::metadata(path.parent().unwrap())
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(dir_mode, 0o700);
    assert_eq!(
        pairdbg::agent::discovery::find(dir.path()).map(|f| f.token),
        Some("t".into())
    );
    drop(published);
    assert!(!path.exists(), "the file goes with the TUI");
    assert!(pairdbg::agent::discovery::find(dir.path()).is_none());
}
