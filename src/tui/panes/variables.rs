//! Locals of the selected frame as a tree: Enter expands a value (children
//! are read when first opened, a page at a time; Enter on `… N more` reads
//! the next page, `[` jumps to an index), values that changed since
//! the last stop are lit, and `y` copies the selected value.

use std::collections::BTreeMap;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{block, window_start};
use crate::session::types::{RunState, Snapshot, StopInfo, Var};
use crate::tui::state::{Focus, UiState};
use crate::tui::theme::Theme;
use crate::viewport::ViewportConfig;
use crate::viewport::value::{render as render_value, same_value};

/// Children shown per expanded value; the rest is summarised.
pub const PAGE: usize = 200;

pub fn visible(vars: &[Var]) -> Vec<&Var> {
    vars.iter().filter(|v| !v.hidden).collect()
}

/// The children read per path, and where each page starts.
type Tree<'a, 'b> = (
    &'a BTreeMap<String, (Vec<Var>, usize)>,
    &'b BTreeMap<String, usize>,
);

/// One row of the tree.
pub struct Row<'a> {
    pub depth: usize,
    /// The path `debug_variables` understands: `cart.items.0`; on a gap row,
    /// the container's.
    pub path: String,
    pub var: &'a Var,
    pub expanded: bool,
    /// A row standing for children not read: how many, and whether they
    /// come after the ones shown (else before).
    pub gap: Option<(usize, bool)>,
}

/// How the path of a scope's row starts, so that it cannot be taken for a
/// local's.
pub const SCOPE_MARK: char = '§';

impl Row<'_> {
    /// A frame's scope (globals, registers) rather than a value.
    pub fn is_scope(&self) -> bool {
        self.depth == 0 && self.gap.is_none() && self.path.starts_with(SCOPE_MARK)
    }
}

/// A scope's name and the path within it, for a row under a scope.
pub fn split_scope(path: &str) -> Option<(&str, Option<&str>)> {
    let rest = path.strip_prefix(SCOPE_MARK)?;
    Some(match rest.split_once('.') {
        Some((scope, inner)) => (scope, Some(inner)),
        None => (rest, None),
    })
}

/// The selected frame's tree in display order: a value a step out returned
/// first, then the locals, then the frame's other scopes (folded until
/// opened).
pub fn tree<'a>(ui: &'a UiState, stop: &'a StopInfo) -> Vec<Row<'a>> {
    let (returned, locals): (Vec<&Var>, Vec<&Var>) = visible(ui.locals(stop))
        .into_iter()
        .partition(|v| v.is_return_value());
    let t = (&ui.children, &ui.pages);
    let mut out = vec![];
    walk(returned, "", 0, t, &mut out);
    walk(locals, "", 0, t, &mut out);
    for scope in &ui.scopes {
        walk(vec![scope], &SCOPE_MARK.to_string(), 0, t, &mut out);
    }
    out
}

fn walk<'a>(
    vars: Vec<&'a Var>,
    prefix: &str,
    depth: usize,
    tree: Tree<'a, '_>,
    out: &mut Vec<Row<'a>>,
) {
    let (children, pages) = tree;
    for v in vars {
        let path = if prefix.is_empty() {
            v.name.clone()
        } else if prefix.len() == SCOPE_MARK.len_utf8() {
            format!("{prefix}{}", v.name)
        } else {
            format!("{prefix}.{}", v.name)
        };
        let open = children.get(&path);
        out.push(Row {
            depth,
            path: path.clone(),
            var: v,
            expanded: open.is_some(),
            gap: None,
        });
        if let Some((kids, total)) = open {
            let from = pages.get(&path).copied().unwrap_or(0).min(*total);
            let gap = |n, later| Row {
                depth: depth + 1,
                path: path.clone(),
                var: v,
                expanded: false,
                gap: Some((n, later)),
            };
            if from > 0 {
                out.push(gap(from, false));
            }
            walk(visible(kids), &path, depth + 1, tree, out);
            let after = total.saturating_sub(from + kids.len());
            if after > 0 {
                out.push(gap(after, true));
            }
        }
    }
}

pub fn render(
    f: &mut Frame,
    area: Rect,
    snap: &Snapshot,
    ui: &UiState,
    theme: &Theme,
    previous: Option<&[Var]>,
) {
    let title = if ui.selected_frame > 0 {
        format!("variables (frame {})", ui.selected_frame)
    } else {
        "variables".into()
    };
    let blk = block(&title, Focus::Variables, ui, theme);
    let inner = blk.inner(area);
    f.render_widget(blk, area);
    let Some(stop) = snap
        .stop
        .as_ref()
        .filter(|_| snap.state == RunState::Stopped)
    else {
        return;
    };
    let cfg = ViewportConfig {
        string_truncate_length: inner.width.max(20) as usize,
        ..Default::default()
    };
    let rows = tree(ui, stop);
    // A long returned value's name, or a scope's, does not push every
    // value right.
    let name_w = rows
        .iter()
        .filter(|r| r.gap.is_none() && !r.var.is_return_value() && !r.is_scope())
        .map(|r| r.depth * 2 + r.var.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(28);
    let height = inner.height as usize;
    let start = window_start(ui.selected_var, height, rows.len());
    let function = crate::tui::number_format::function_at(snap, ui.selected_frame);
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(start)
        .take(height)
        .map(|(i, r)| {
            let v = r.var;
            if let Some((n, later)) = r.gap {
                let text = if later {
                    format!(
                        "{}… {n} more (Enter reads on, [ goes to an index)",
                        "  ".repeat(r.depth)
                    )
                } else {
                    format!("{}… {n} before (Enter reads back)", "  ".repeat(r.depth))
                };
                let line = Line::from(vec![Span::raw("  "), Span::styled(text, theme.dim)]);
                let line = super::clip::ellipsize(line, inner.width as usize);
                return if ui.focus == Focus::Variables && i == ui.selected_var {
                    line.style(theme.selected)
                } else {
                    line
                };
            }
            let changed = r.depth == 0
                && previous
                    .is_some_and(|p| !p.iter().any(|o| o.name == v.name && same_value(o, v)));
            let loading = ui.loading.contains(&r.path);
            // Open (▾) only once its children are there to show.
            let marker = match (v.reference > 0, r.expanded) {
                (true, true) => "▾ ",
                (true, false) => "▸ ",
                _ => "  ",
            };
            let label = format!("{}{}", "  ".repeat(r.depth), v.name);
            // The value fits the room its row leaves it, so a collection's
            // count is not what the pane's edge cuts.
            let cfg = ViewportConfig {
                string_truncate_length: (inner.width as usize)
                    .saturating_sub(label.chars().count().max(name_w) + 5)
                    .max(20),
                ..cfg.clone()
            };
            let value = render_value(&ui.formats.shown(&function, &r.path, v), &cfg, 0);
            if r.is_scope() {
                let line = Line::from(vec![
                    Span::styled(marker, theme.dim),
                    Span::styled(v.name.clone(), theme.title),
                ]);
                return if ui.focus == Focus::Variables && i == ui.selected_var {
                    line.style(theme.selected)
                } else {
                    line
                };
            }
            let mut spans = vec![
                Span::styled(marker, theme.dim),
                Span::styled(format!("{label:<name_w$}"), theme.text),
                Span::styled(" = ", theme.dim),
            ];
            // Before the value, which a narrow pane cuts.
            if loading {
                spans.push(Span::styled("…loading (Esc gives up)  ", theme.dim));
            }
            spans.push(Span::styled(
                value,
                if changed { theme.changed } else { theme.text },
            ));
            let line = super::clip::ellipsize(Line::from(spans), inner.width as usize);
            if ui.focus == Focus::Variables && i == ui.selected_var {
                line.style(theme.selected)
            } else {
                line
            }
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
