//! The native views in the source pane's place: disassembly of the selected
//! frame and a memory dump.

pub mod disassembly;
pub mod memory;

use crate::session::native::{Disassembly, Memory};

/// Which native view covers the source pane, if any.
#[derive(Debug, Clone, Default)]
pub enum NativeView {
    #[default]
    None,
    /// The instructions, once read (`Err` says why they are not); the
    /// first row shown; and the stop they belong to.
    Disassembly {
        read: Option<Result<Disassembly, String>>,
        scroll: Option<usize>,
        stop_seq: u64,
    },
    Memory {
        memory: Memory,
        /// First row (16 bytes each) shown.
        scroll: usize,
        /// More bytes are being read.
        reading: bool,
    },
}

/// Bytes in one row of the memory view.
pub const ROW_BYTES: usize = 16;

/// What the UI keeps of the native views between frames.
#[derive(Debug, Clone, Default)]
pub struct NativeUi {
    pub view: NativeView,
}

impl NativeUi {
    pub fn disassembly_shown(&self) -> bool {
        matches!(self.view, NativeView::Disassembly { .. })
    }

    pub fn shown(&self) -> bool {
        !matches!(self.view, NativeView::None)
    }
}

/// Draws the shown native view over `area`; false when none is shown and
/// the source belongs there.
pub fn render(
    f: &mut ratatui::Frame,
    area: ratatui::layout::Rect,
    snap: &crate::session::types::Snapshot,
    ui: &crate::tui::state::UiState,
    theme: &crate::tui::theme::Theme,
) -> bool {
    match &ui.native.view {
        NativeView::None => return false,
        NativeView::Disassembly { read, scroll, .. } => {
            disassembly::render(f, area, snap, ui, theme, read.as_ref(), *scroll)
        }
        NativeView::Memory {
            memory,
            scroll,
            reading,
        } => memory::render(f, area, ui, theme, memory, *scroll, *reading),
    }
    true
}
