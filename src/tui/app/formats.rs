//! The number-format key: the selected variable's next format, kept per
//! function and name for the session.

use super::App;
use crate::session::types::Snapshot;
use crate::tui::number_format::{NumberFormat, function_at, parse_integer};
use crate::tui::state::Focus;

impl App {
    pub(super) fn cycle_format(&mut self, snap: &Snapshot) {
        let frame = if self.ui.focus == Focus::Watches {
            0
        } else {
            self.ui.selected_frame
        };
        let Some(sel) = self.selected_value(snap) else {
            return;
        };
        let function = function_at(snap, frame);
        // A watch is known by its expression, a variable by its path.
        let name = if self.ui.focus == Focus::Watches {
            sel.title.clone()
        } else {
            self.selected_path(snap).unwrap_or(sel.title.clone())
        };
        let next = self.ui.formats.get(&function, &name).next();
        if next != NumberFormat::Natural && parse_integer(&sel.var.value).is_none() {
            self.ui.message = Some(format!(
                "{name} = {} is not an integer: hex, binary and char show integers only",
                sel.var.value
            ));
            return;
        }
        self.ui.formats.set(&function, &name, next);
        self.ui.message = Some(format!("{name} in {}", next.name()));
    }

    fn selected_path(&self, snap: &Snapshot) -> Option<String> {
        let stop = snap.stop.as_ref()?;
        let rows = crate::tui::panes::variables::tree(&self.ui, stop);
        rows.get(self.ui.selected_var).map(|r| r.path.clone())
    }
}
