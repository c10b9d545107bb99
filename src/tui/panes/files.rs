//! The file picker: workspace files filtered as you type.

use std::path::{Path, PathBuf};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::tui::picker;
use crate::tui::theme::Theme;

pub fn render(
    f: &mut Frame,
    area: Rect,
    theme: &Theme,
    files: &[PathBuf],
    root: &Path,
    query: &str,
    selected: usize,
) {
    let found = picker::filter(files, root, query);
    let items = found
        .iter()
        .map(|p| {
            Line::styled(
                format!(" {}", p.strip_prefix(root).unwrap_or(p).display()),
                theme.text,
            )
        })
        .collect();
    let title = format!("files ({})", found.len());
    super::list_overlay(
        f,
        area,
        theme,
        70,
        &title,
        "open › ",
        query,
        items,
        selected,
    );
}
