//! Tool profiles other than pairdbg's own: the same engine under the tool
//! names, arguments and result shapes another debugger's clients expect.

pub mod mcp_debugger;

/// Which tool set an MCP connection serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    #[default]
    Pairdbg,
    /// mcp-debugger's tools.
    McpDebugger,
}

impl Profile {
    /// The HTTP path the profile is served at beside `/mcp`, for
    /// `pairdbg mcp` joining a TUI or host.
    pub fn http_path(self) -> &'static str {
        match self {
            Profile::Pairdbg => "/mcp",
            Profile::McpDebugger => mcp_debugger::HTTP_PATH,
        }
    }

    /// The endpoint for this profile, from the discovery file's `/mcp` url.
    pub fn url_from(self, mcp_url: &str) -> String {
        match mcp_url.strip_suffix("/mcp") {
            Some(base) => format!("{base}{}", self.http_path()),
            None => mcp_url.to_string(),
        }
    }
}
