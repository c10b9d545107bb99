//! The native views in the source pane's place: disassembly of the selected
//! frame and a memory dump; and the registers row of the variables tree.

pub mod disassembly;
pub mod memory;

use crate::session::native::{Disassembly, Memory};
use crate::session::types::Var;

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
    /// Scopes shown after the locals, collapsed: the adapter's Registers.
    pub scopes: Vec<Var>,
    /// The adapter has no Registers scope: stop asking at every stop.
    pub no_registers: bool,
}

impl NativeUi {
    pub fn disassembly_shown(&self) -> bool {
        matches!(self.view, NativeView::Disassembly { .. })
    }

    pub fn shown(&self) -> bool {
        !matches!(self.view, NativeView::None)
    }

    /// The scope a tree path starts in, and the rest of the path.
    pub fn scope_of<'a>(&self, path: &'a str) -> Option<(String, Option<&'a str>)> {
        self.scopes.iter().find_map(|s| {
            let rest = path.strip_prefix(s.name.as_str())?;
            match rest.strip_prefix('.') {
                Some(r) => Some((s.name.clone(), Some(r))),
                None if rest.is_empty() => Some((s.name.clone(), None)),
                None => None,
            }
        })
    }
}

/// The row for a scope in the variables tree: expandable, read when opened.
pub fn scope_row(name: &str, count: usize) -> Var {
    Var {
        name: name.to_string(),
        value: format!("{count} groups"),
        type_name: String::new(),
        // Any positive reference marks it expandable; its children are read
        // by scope name, not by this number.
        reference: 1,
        evaluate_name: None,
        children: None,
        truncated: false,
        length: None,
        hidden: false,
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
