//! `pairdbg mcp`'s flags.

use clap::{Args, ValueEnum};

use crate::mcp::profiles::Profile;

#[derive(Debug, Args)]
pub struct McpArgs {
    /// The tool set: pairdbg's own, or mcp-debugger's names, arguments and
    /// results for clients written for it.
    #[arg(long, value_enum, default_value_t = ProfileArg::Pairdbg)]
    pub profile: ProfileArg,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum ProfileArg {
    Pairdbg,
    McpDebugger,
}

impl From<ProfileArg> for Profile {
    fn from(p: ProfileArg) -> Self {
        match p {
            ProfileArg::Pairdbg => Profile::Pairdbg,
            ProfileArg::McpDebugger => Profile::McpDebugger,
        }
    }
}
