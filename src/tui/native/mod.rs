//! The native views: disassembly of the selected frame, beside the source,
//! and a memory dump in the source's place.

pub mod disassembly;
pub mod memory;
pub mod view;

pub use view::{NativeUi, NativeView, ROW_BYTES};

/// Draws the shown native view over `area` (the layout gives it none when
/// no view is shown).
pub fn render(
    f: &mut ratatui::Frame,
    area: ratatui::layout::Rect,
    snap: &crate::session::types::Snapshot,
    ui: &crate::tui::state::UiState,
    theme: &crate::tui::theme::Theme,
) {
    if area.area() == 0 {
        return;
    }
    match &ui.native.view {
        NativeView::None => {}
        NativeView::Disassembly { read, scroll, .. } => {
            disassembly::render(f, area, snap, ui, theme, read.as_ref(), *scroll)
        }
        NativeView::Memory {
            memory,
            scroll,
            reading,
        } => memory::render(f, area, ui, theme, memory, *scroll, *reading),
    }
}
