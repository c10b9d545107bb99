//! The native views in the source pane's place: disassembly of the selected
//! frame and a memory dump.

pub mod disassembly;
pub mod memory;
pub mod view;

pub use view::{NativeUi, NativeView, ROW_BYTES};

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
