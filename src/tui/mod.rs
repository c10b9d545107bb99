//! The terminal UI: a controller of the session engine for a person.

pub mod action;
mod app;
pub mod draw;
mod hangup;
pub mod highlight;
mod install;
pub mod layout;
pub mod native;
pub mod number_format;
pub mod panes;
pub mod picker;
mod screen;
pub mod state;
pub mod terminal_keys;
pub mod theme;
pub mod viewer;
pub mod workspace_state;

use crate::session::validate::Workspace;
use crate::session::{LaunchRequest, Registry};

/// Writes to stderr without panicking when it is gone (a hung-up terminal).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// Gives the terminal back. Errors are ignored: when the terminal has hung
/// up there is nothing to restore, and ratatui's own `restore` would then
/// panic printing its complaint to the dead stderr, before the session ends.
fn restore() {
    let _ = ratatui::try_restore();
}

/// Mouse reporting on or off. A panic turns it off before ratatui's own hook
/// restores the rest, so a crash never leaves the terminal echoing clicks.
fn mouse(on: bool) {
    use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
    let mut out = std::io::stdout();
    if on {
        let _ = crossterm::execute!(out, EnableMouseCapture);
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
            previous(info);
        }));
    } else {
        let _ = crossterm::execute!(out, DisableMouseCapture);
    }
}

/// What the person allows the agent that joins this TUI.
#[derive(Debug, Clone, Copy)]
pub struct AgentPolicy {
    /// Mask values that look like secrets in the agent's results.
    pub redact: bool,
    /// Ask the person before an agent's side effect runs.
    pub approve_side_effects: bool,
}

/// Launches the program and runs the UI until the person quits. The terminal
/// is restored on every way out, panics included (ratatui's hook).
pub async fn run(
    ws: Workspace,
    request: LaunchRequest,
    theme: theme::Theme,
    keymap: action::Keymap,
    policy: AgentPolicy,
) -> u8 {
    let saved = workspace_state::load(&ws.root);
    let config = match request.validate(&ws, crate::session::REQUEST_TIMEOUT) {
        Ok(c) => {
            let mut c = crate::session::LaunchConfig {
                origin: crate::session::Origin::Human,
                ..c
            };
            if let Some(s) = &saved {
                s.restore_into(&mut c);
            }
            c
        }
        Err(e) => {
            say!("pairdbg: {e}");
            return 1;
        }
    };
    // Without its adapter, offer to install it before anything else starts.
    if let Some(missing) = crate::session::setup::missing_adapter(&config).await {
        let mut terminal = match screen::init() {
            Ok(t) => t,
            Err(e) => {
                say!("pairdbg: the terminal cannot be set up: {e}");
                return 1;
            }
        };
        let installed = install::offer(&mut terminal, &theme, &config, &missing).await;
        restore();
        if !installed {
            say!(
                "pairdbg: {}; install it with: {}",
                missing.problem,
                missing.install_command
            );
            return 1;
        }
    }
    let adapter = config.adapter.name();
    let registry = Registry::default();
    registry
        .approvals()
        .set_required(policy.approve_side_effects);
    let session = match registry.launch(config).await {
        Ok(s) => s,
        Err(e) => {
            say!("pairdbg: {e}");
            return 1;
        }
    };
    if let Some(watches) = saved.map(|s| s.watches).filter(|w| !w.is_empty()) {
        let _ = session
            .watch(crate::session::Origin::Human, watches, vec![])
            .await;
    }
    // Agents reach this very session over MCP; `pairdbg mcp` finds it.
    let views = crate::agent::Views::default().with_redaction(policy.redact);
    let endpoint = crate::mcp::http::serve(
        registry.clone(),
        views,
        ws.clone(),
        Some(crate::agent::discovery::Publisher::Tui),
    )
    .await;
    let url = endpoint.as_ref().ok().map(|e| e.url.clone());
    let watch = tokio::spawn(hangup::watch(registry.clone()));
    let mut terminal = match screen::init() {
        Ok(t) => t,
        Err(e) => {
            watch.abort();
            restore();
            say!("pairdbg: the terminal cannot be set up: {e}");
            return 1;
        }
    };
    mouse(true);
    let result = app::App::new(registry.clone(), session.clone(), theme, keymap, url)
        .remember(adapter)
        .run(&mut terminal)
        .await;
    watch.abort();
    mouse(false);
    restore();
    // ratatui shows the cursor again when the terminal is dropped, and
    // panics printing why it could not to a hung-up terminal's stderr.
    if terminal.show_cursor().is_err() {
        std::mem::forget(terminal);
    }
    let hung_up = hangup::ended_the_ui(&result);
    tracing::info!("the TUI ended: {:?}", result.as_ref().err());
    drop(endpoint);
    registry.clear();
    if let Some(e) = session.snapshot().error.as_deref() {
        say!("pairdbg: {e}");
    }
    match result {
        _ if hung_up => hangup::EXIT_STATUS,
        Ok(()) => 0,
        Err(e) => {
            say!("pairdbg: terminal error: {e}");
            1
        }
    }
}
