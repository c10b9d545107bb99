//! The terminal the TUI draws on. Each frame leaves in one write: Rust's
//! stdout flushes every kilobyte, so a frame went out in dozens of pieces,
//! and a terminal (or a multiplexer) that shows what it has read could
//! show the top of a new frame over the bottom of the old one.

use std::io::{BufWriter, Stdout};

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// Room for the biggest frame: a full repaint of a large, colourful
/// screen is a few hundred kilobytes.
const FRAME_BYTES: usize = 1 << 20;

pub type Screen = Terminal<CrosstermBackend<BufWriter<Stdout>>>;

/// Raw mode, the alternate screen, and the panic hook that undoes them,
/// as ratatui sets them up; then a terminal whose frames leave whole.
pub fn init() -> std::io::Result<Screen> {
    drop(ratatui::try_init()?);
    Terminal::new(CrosstermBackend::new(BufWriter::with_capacity(
        FRAME_BYTES,
        std::io::stdout(),
    )))
}
