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

/// Whether each frame is bracketed by window titles, for a program that
/// reads the screen back through a multiplexer: tmux before 3.4 ignores
/// synchronized output, so such a reader can catch a frame half drawn,
/// and the title (read in the same breath as the grid) tells it so.
fn frame_marks() -> bool {
    static MARKS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *MARKS.get_or_init(|| std::env::var_os("PAIRDBG_FRAME_MARKS").is_some())
}

/// Draws one frame; with frame marks asked for, the title reads `pairdbg drawing` while
/// the frame goes out and `pairdbg` once it is whole.
pub fn draw_frame(
    terminal: &mut Screen,
    render: impl FnOnce(&mut ratatui::Frame),
) -> std::io::Result<()> {
    use std::io::Write;
    let marks = frame_marks();
    if marks {
        terminal
            .backend_mut()
            .write_all(b"\x1b]2;pairdbg drawing\x07")?;
    }
    terminal.draw(render)?;
    if marks {
        let out = terminal.backend_mut();
        out.write_all(b"\x1b]2;pairdbg\x07")?;
        out.flush()?;
    }
    Ok(())
}
