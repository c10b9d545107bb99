//! What the UI keeps of the native views between frames: which one covers
//! the source pane, and where it is scrolled.

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
