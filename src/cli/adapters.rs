//! `pairdbg adapters`: what each adapter is, whether it is here, and
//! installing one.

use clap::Subcommand;

use crate::adapters::{self, LaunchSpec};
use crate::session::validate::Workspace;

#[derive(Debug, Subcommand)]
pub enum AdaptersCmd {
    /// Install the adapter for a language (or print the command, where it
    /// needs root).
    Install { language: String },
}

pub async fn run(ws: &Workspace, action: Option<AdaptersCmd>) -> u8 {
    let spec = LaunchSpec::for_workspace(&ws.root);
    match action {
        None => {
            for a in adapters::all() {
                let languages = a.languages().join(", ");
                match a.probe(&spec).await {
                    Ok(f) => println!(
                        "{:<9} {:<26} {} ({})",
                        a.name(),
                        languages,
                        f.version,
                        f.path
                    ),
                    Err(e) => println!(
                        "{:<9} {:<26} missing: {e}; install with: {}",
                        a.name(),
                        languages,
                        a.install_command(&spec)
                    ),
                }
            }
            0
        }
        Some(AdaptersCmd::Install { language }) => {
            let adapter = match adapters::for_language(&language) {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("pairdbg: {e}");
                    return 2;
                }
            };
            if let Ok(f) = adapter.probe(&spec).await {
                println!("{} is already installed ({})", f.version, f.path);
                return 0;
            }
            println!(
                "installing {}: {}",
                adapter.name(),
                adapter.install_command(&spec)
            );
            match adapter.install(&spec).await {
                Ok(f) => {
                    println!("{} installed ({})", f.version, f.path);
                    0
                }
                Err(e) => {
                    eprintln!("pairdbg: {e}");
                    1
                }
            }
        }
    }
}
