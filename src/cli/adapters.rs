use clap::Subcommand;

use crate::dap::adapters::{self, debugpy};
use crate::session::validate::Workspace;

#[derive(Debug, Subcommand)]
pub enum AdaptersCmd {
    /// Install the adapter for a language (python: debugpy with pip).
    Install { language: String },
}

pub async fn run(ws: &Workspace, action: Option<AdaptersCmd>) -> u8 {
    match action {
        None => {
            for a in adapters::list(&ws.root).await {
                match a.found {
                    Ok(v) => println!("{:<9} {:<13} {v}", a.name, a.language),
                    Err(e) => println!("{:<9} {:<13} missing: {e}", a.name, a.language),
                }
            }
            0
        }
        Some(AdaptersCmd::Install { language }) if language == "python" => {
            let python = match debugpy::find_python(None, &ws.root) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("pairdbg: {e}");
                    return 1;
                }
            };
            if let Ok(v) = debugpy::version(&python).await {
                println!("debugpy {v} is already installed for {}", python.display());
                return 0;
            }
            println!("installing debugpy: {}", debugpy::install_command(&python));
            match debugpy::install(&python).await {
                Ok(v) => {
                    println!("debugpy {v} installed for {}", python.display());
                    0
                }
                Err(e) => {
                    eprintln!("pairdbg: {e}");
                    1
                }
            }
        }
        Some(AdaptersCmd::Install { language }) => {
            let hint = match language.as_str() {
                "c" | "cpp" | "c++" | "rust" => "apt-get install lldb-22 (as root)",
                "go" => "apt-get install golang-go delve (as root)",
                _ => "no adapter is known for it",
            };
            eprintln!("pairdbg: {language} is not supported yet; {hint}");
            2
        }
    }
}
