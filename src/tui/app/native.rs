//! The native views from the person's keys: disassembly of the selected
//! frame (steps then go by instruction) and memory at an expression.

use super::{App, UiEvent};
use crate::session::Origin;
use crate::session::RunState;
use crate::session::native::{MEMORY_CHUNK, NEEDS_NATIVE, NativeSupport};
use crate::tui::native::NativeView;
use crate::tui::state::Focus;

impl App {
    /// Why a native view cannot open in this session, once the adapter
    /// has said what it gives.
    pub(super) fn native_refused(
        &mut self,
        what: &str,
        given: impl Fn(NativeSupport) -> bool,
    ) -> bool {
        let snap = self.session.snapshot();
        let refused = snap.state != RunState::Starting && !given(snap.native);
        if refused {
            self.ui.message = Some(format!("{what} {NEEDS_NATIVE}"));
        }
        refused
    }

    pub(super) fn toggle_disassembly(&mut self) {
        if self.ui.native.disassembly_shown() {
            return self.close_native_view();
        }
        if self.native_refused("disassembly", |n| n.disassemble) {
            return;
        }
        let stop_seq = self.ui.followed_stop;
        self.ui.native.view = NativeView::Disassembly {
            read: None,
            scroll: None,
            stop_seq,
        };
        self.ui.focus = Focus::Source;
        // The source now shares its pane: its current line must still show.
        self.keep_cursor_visible();
        self.fetch_disassembly(stop_seq);
    }

    pub(super) fn close_native_view(&mut self) {
        self.ui.native.view = NativeView::None;
        self.keep_cursor_visible();
    }

    fn fetch_disassembly(&self, stop_seq: u64) {
        let frame = self.ui.selected_frame;
        self.ask(
            move |s| async move { s.disassemble(Origin::Human, frame).await },
            move |res| {
                let res = res.map_err(|e| e.to_string());
                Some(UiEvent::Update(Box::new(move |app: &mut App| {
                    let unsupported = res.as_ref().err().filter(|e| e.contains(NEEDS_NATIVE));
                    if let Some(why) = unsupported {
                        app.ui.message = Some(why.clone());
                        app.ui.native.view = NativeView::None;
                        return;
                    }
                    if let NativeView::Disassembly {
                        read,
                        scroll,
                        stop_seq: at,
                    } = &mut app.ui.native.view
                    {
                        *read = Some(res);
                        *scroll = None;
                        *at = stop_seq;
                    }
                })))
            },
        );
    }

    pub(super) fn open_memory(&mut self, expression: String) {
        let frame = self.ui.selected_frame;
        self.ask(
            move |s| async move {
                s.read_memory(Origin::Human, expression, frame, 0, MEMORY_CHUNK)
                    .await
            },
            move |res| {
                Some(UiEvent::Update(Box::new(move |app: &mut App| match res {
                    Ok(memory) => {
                        app.ui.native.view = NativeView::Memory {
                            memory,
                            scroll: 0,
                            reading: false,
                        };
                        app.ui.focus = Focus::Source;
                    }
                    Err(e) => app.ui.message = Some(e.to_string()),
                })))
            },
        );
    }

    /// Scrolls the shown native view; the memory view reads on when the
    /// person scrolls past what it holds.
    pub(super) fn scroll_native(&mut self, delta: i64, page: usize) {
        let width = crate::tui::draw::layout(self.size, &self.ui)
            .native
            .width
            .saturating_sub(2);
        match &mut self.ui.native.view {
            NativeView::None => {}
            NativeView::Disassembly { read, scroll, .. } => {
                let Some(Ok(d)) = read else { return };
                let (lines, current) =
                    crate::tui::native::disassembly::lines(d, &self.theme, width as usize);
                let start = scroll.unwrap_or_else(|| {
                    crate::tui::panes::window_start(current.unwrap_or(0), page, lines.len())
                });
                let last = lines.len().saturating_sub(page) as i64;
                *scroll = Some((start as i64).saturating_add(delta).clamp(0, last.max(0)) as usize);
            }
            NativeView::Memory {
                memory,
                scroll,
                reading,
            } => {
                let per_row = crate::tui::native::memory::row_bytes(width);
                let rows = memory.data.len().div_ceil(per_row);
                let row = (*scroll / per_row) as i64;
                let last = rows.saturating_sub(1) as i64;
                let want = row.saturating_add(delta);
                *scroll = (want.clamp(0, last.max(0)) as usize) * per_row;
                // Past the end (or with the end on screen): read on.
                let end_shown = *scroll / per_row + page >= rows;
                if (want > last || end_shown) && !*reading && memory.unreadable == 0 {
                    *reading = true;
                    let (reference, offset) = (memory.reference.clone(), memory.data.len());
                    self.read_more(reference, offset);
                }
            }
        }
    }

    fn read_more(&self, reference: String, offset: usize) {
        let frame = self.ui.selected_frame;
        self.ask(
            move |s| async move {
                s.read_memory(Origin::Human, reference, frame, offset as i64, MEMORY_CHUNK)
                    .await
            },
            move |res| {
                Some(UiEvent::Update(Box::new(move |app: &mut App| {
                    let NativeView::Memory {
                        memory, reading, ..
                    } = &mut app.ui.native.view
                    else {
                        return;
                    };
                    *reading = false;
                    match res {
                        // Only bytes that continue the view are added.
                        Ok(more) if more.address == memory.address + memory.data.len() as u64 => {
                            memory.data.extend(more.data);
                            memory.unreadable = more.unreadable;
                        }
                        Ok(_) => {}
                        Err(e) => app.ui.message = Some(e.to_string()),
                    }
                })))
            },
        );
    }

    /// At a new stop: the disassembly again if it is shown.
    pub(super) fn native_stop(&mut self, stop_seq: u64) {
        if self.ui.native.disassembly_shown() {
            self.fetch_disassembly(stop_seq);
        }
    }

    /// Another frame is selected: its instructions.
    pub(super) fn native_frame_changed(&mut self, stop_seq: u64) {
        self.native_stop(stop_seq);
    }
}
