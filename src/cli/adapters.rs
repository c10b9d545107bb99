//! `pairdbg adapters`: what each adapter is, whether it is here, and
//! installing one.

use clap::Subcommand;

use std::time::Duration;

use crate::adapters::{self, LaunchSpec};
use crate::session::initialize::{capabilities, capability_names};
use crate::session::validate::Workspace;

#[derive(Debug, Subcommand)]
pub enum AdaptersCmd {
    /// Install the adapter for a language, or by its name (debugpy, lldb,
    /// delve, js-debug); where it needs root and pairdbg is not, print the command.
    Install {
        language: String,
        /// Install from this downloaded file (js-debug: a
        /// js-debug-dap-vX.tar.gz release) instead of the package manager.
        #[arg(long, value_name = "FILE")]
        from: Option<std::path::PathBuf>,
    },
}

pub async fn run(ws: &Workspace, action: Option<AdaptersCmd>) -> u8 {
    let spec = LaunchSpec::for_workspace(&ws.root);
    match action {
        None => {
            for a in adapters::all() {
                let mut languages = a.languages().join(", ");
                if a.only_core_files() {
                    languages.push_str(" crash files");
                }
                match a.probe(&spec).await {
                    Ok(f) => {
                        say!(
                            "{:<9} {:<26} {} ({})",
                            a.name(),
                            languages,
                            f.version,
                            f.path
                        );
                        if let Some(w) = &f.warning {
                            say!("          warning: {w}");
                        }
                        // One that only reads crash files runs nothing to ask.
                        if !a.only_core_files() {
                            print_capabilities(*a, &spec).await;
                        }
                    }
                    Err(e) => say!(
                        "{:<9} {:<26} missing: {e}; install with: {}",
                        a.name(),
                        languages,
                        a.install_command(&spec)
                    ),
                }
            }
            0
        }
        Some(AdaptersCmd::Install { language, from }) => {
            let adapter = match adapters::to_install(&language) {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("pairdbg: {e}");
                    return 2;
                }
            };
            if let Some(file) = from {
                return report(adapter.install_from(&file).await);
            }
            match adapter.probe(&spec).await {
                Ok(f) if f.warning.is_none() => {
                    say!("{} is already installed ({})", f.version, f.path);
                    return 0;
                }
                // Installed but too old for what it must read: replace it.
                Ok(f) => say!(
                    "{} ({}): {}",
                    f.version,
                    f.path,
                    f.warning.unwrap_or_default()
                ),
                Err(_) => {}
            }
            say!(
                "installing {}: {}",
                adapter.name(),
                adapter.install_command(&spec)
            );
            report(adapter.install(&spec).await)
        }
    }
}

fn report(result: Result<adapters::Found, adapters::AdapterError>) -> u8 {
    match result {
        Ok(f) => {
            say!("{} installed ({})", f.version, f.path);
            0
        }
        Err(e) => {
            eprintln!("pairdbg: {e}");
            1
        }
    }
}

/// What the adapter says it can do, asked with `initialize`.
async fn print_capabilities(adapter: adapters::AdapterRef, spec: &LaunchSpec) {
    match capabilities(adapter, spec, Duration::from_secs(10)).await {
        Ok(caps) => {
            say!(
                "          capabilities: {}",
                capability_names(&caps).join(", ")
            );
            let filters: Vec<&str> = caps["exceptionBreakpointFilters"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f["filter"].as_str())
                .collect();
            if !filters.is_empty() {
                say!("          exception filters: {}", filters.join(", "));
            }
        }
        Err(e) => say!("          capabilities: not read ({e})"),
    }
}
