//! `pairdbg mcp`: MCP on stdio, either joining the TUI or host of the
//! workspace, or serving sessions of its own and ending them on the way out.

use rmcp::ServiceExt;

use crate::agent::discovery;
use crate::session::Registry;
use crate::session::validate::Workspace;

/// Serves MCP on stdio until the client leaves or a signal arrives, then ends
/// every session so no adapter or debuggee outlives us.
pub async fn serve(ws: Workspace, redact: bool, profile: crate::mcp::profiles::Profile) -> u8 {
    if let Err(why) = discovery::dir() {
        eprintln!("pairdbg: {why}; serving sessions of its own");
    }
    let views = crate::agent::Views::default().with_redaction(redact);
    // A TUI of this workspace is running: drive its session, and serve on
    // our own once no host is left.
    if let Some(d) = discovery::find(&ws.root) {
        let root = ws.root.clone();
        let joined = match profile {
            crate::mcp::profiles::Profile::Pairdbg => {
                let make = move || {
                    let registry = Registry::default();
                    let server = crate::mcp::PairdbgServer::with_views(
                        registry.clone(),
                        ws.clone(),
                        views.clone(),
                    );
                    (server, registry)
                };
                crate::mcp::proxy::run(d, profile, root, Box::new(make)).await
            }
            crate::mcp::profiles::Profile::McpDebugger => {
                let make = move || {
                    let registry = Registry::default();
                    let server = crate::mcp::profiles::mcp_debugger::McpDebuggerServer::new(
                        registry.clone(),
                        ws.clone(),
                        views.clone(),
                        Default::default(),
                    );
                    (server, registry)
                };
                crate::mcp::proxy::run(d, profile, root, Box::new(make)).await
            }
        };
        return match joined {
            Ok(local) => {
                if let Some(registry) = local {
                    super::ending::end_all(&registry).await;
                }
                0
            }
            Err(e) => {
                eprintln!("pairdbg: {e}");
                1
            }
        };
    }
    let registry = Registry::default();
    let code = match profile {
        crate::mcp::profiles::Profile::Pairdbg => {
            let server = crate::mcp::PairdbgServer::with_views(registry.clone(), ws, views);
            serve_until_done(server).await
        }
        crate::mcp::profiles::Profile::McpDebugger => {
            let table = crate::mcp::profiles::mcp_debugger::Table::default();
            let server = crate::mcp::profiles::mcp_debugger::McpDebuggerServer::new(
                registry.clone(),
                ws,
                views,
                table,
            );
            serve_until_done(server).await
        }
    };
    super::ending::end_all(&registry).await;
    code
}

/// Serves `server` on stdio until the client leaves or a signal arrives.
async fn serve_until_done<S: rmcp::ServerHandler>(server: S) -> u8 {
    let service = match server.serve(crate::mcp::stdio_guard::stdio()).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("MCP start-up failed: {e}");
            eprintln!("pairdbg: MCP start-up failed: {e}");
            return 1;
        }
    };
    tokio::select! {
        _ = service.waiting() => {},
        _ = super::ending::signalled() => {},
    }
    0
}
