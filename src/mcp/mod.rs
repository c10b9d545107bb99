//! The MCP server: tools over the session engine, and its transports.

mod activity;
mod annotations;
mod completions;
mod economy;
pub(crate) mod format;
pub mod http;
pub mod params;
pub mod profiles;
mod progress;
mod proxy;
mod push;
mod resources;
mod schema;
pub mod server;
mod tools;

use crate::agent::discovery;
use crate::session::Registry;
use crate::session::validate::Workspace;
use rmcp::ServiceExt;

pub use server::PairdbgServer;

/// Serves MCP on stdio until the client leaves or a signal arrives, then ends
/// every session so no adapter or debuggee outlives us.
pub async fn serve_stdio(ws: Workspace, redact: bool, profile: profiles::Profile) -> u8 {
    // A TUI of this workspace is running: drive its session.
    if let Some(d) = discovery::find(&ws.root) {
        return match proxy::run(d, profile).await {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("pairdbg: {e}");
                1
            }
        };
    }
    let registry = Registry::default();
    let views = crate::agent::Views::default().with_redaction(redact);
    let code = match profile {
        profiles::Profile::Pairdbg => {
            let server = PairdbgServer::with_views(registry.clone(), ws, views);
            serve_until_done(server).await
        }
        profiles::Profile::McpDebugger => {
            let table = profiles::mcp_debugger::Table::default();
            let server =
                profiles::mcp_debugger::McpDebuggerServer::new(registry.clone(), ws, views, table);
            serve_until_done(server).await
        }
    };
    crate::host::ending::end_all(&registry).await;
    code
}

/// Serves `server` on stdio until the client leaves or a signal arrives.
async fn serve_until_done<S: rmcp::ServerHandler>(server: S) -> u8 {
    let service = match server.serve(rmcp::transport::stdio()).await {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("MCP start-up failed: {e}");
            eprintln!("pairdbg: MCP start-up failed: {e}");
            return 1;
        }
    };
    tokio::select! {
        _ = service.waiting() => {},
        _ = crate::host::ending::signalled() => {},
    }
    0
}
