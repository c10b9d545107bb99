//! Token budgets: a result that would cost more than the agent allowed keeps
//! its most useful lines and ends with the call that fetches the rest.
//! A token is counted as four bytes, the usual rule of thumb for English
//! and code, so a budget is checkable by anyone with `len() / 4`.

use crate::session::SessionError;

/// Below this a result cannot hold its header, footer and a handle.
pub const MIN_TOKENS: usize = 50;
/// A budget above the output cap would never cut anything.
pub const MAX_TOKENS: usize = 250_000;

pub const BYTES_PER_TOKEN: usize = 4;

/// The budget in bytes, or a refusal naming the field and its range.
pub fn check(field: &str, max_tokens: Option<usize>) -> Result<Option<usize>, SessionError> {
    match max_tokens {
        None => Ok(None),
        Some(t) if (MIN_TOKENS..=MAX_TOKENS).contains(&t) => Ok(Some(t * BYTES_PER_TOKEN)),
        Some(t) => Err(SessionError::invalid(
            field,
            format!("{t} is out of range; use {MIN_TOKENS} to {MAX_TOKENS}"),
        )),
    }
}

/// A result body as lines, most relevant first. The first `head` lines are
/// kept whatever the budget; `handle(i)` says how to fetch what starts at
/// line `i` when the lines from `i` on do not fit.
pub struct Fit<'a> {
    pub lines: Vec<String>,
    pub head: usize,
    pub handle: Box<dyn Fn(usize) -> String + 'a>,
}

impl<'a> Fit<'a> {
    pub fn new(text: &str, head: usize, handle: impl Fn(usize) -> String + 'a) -> Self {
        Fit {
            lines: text.lines().map(str::to_string).collect(),
            head,
            handle: Box::new(handle),
        }
    }

    /// The lines that fit in `bytes`, then the handle for the rest.
    pub fn render(&self, bytes: usize) -> String {
        let whole = self.lines.join("\n");
        if whole.len() <= bytes {
            return whole;
        }
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            // Head lines are kept, so there is nothing to fetch before them.
            if i >= self.head {
                let handle = (self.handle)(i);
                if out.len() + line.len() + 1 + handle.len() > bytes {
                    out.push_str(&handle);
                    return cut(&out, bytes);
                }
            }
            out.push_str(line);
            out.push('\n');
        }
        cut(out.trim_end(), bytes)
    }
}

pub use crate::viewport::cut_to as cut;

/// A JSON viewport in `bytes`, still valid JSON: the source lines go
/// first, then locals from the last, then callers' frames, and `omitted`
/// says what went and how to fetch it. Cutting the text would leave JSON
/// no client can parse.
pub fn fit_json(
    mut v: serde_json::Value,
    bytes: usize,
    all_locals: usize,
    more: &crate::viewport::ReadMore,
) -> String {
    let fits = |v: &serde_json::Value| serde_json::to_string(v).map_or(0, |s| s.len()) <= bytes;
    let mut omitted = serde_json::Map::new();
    if !fits(&v)
        && let Some(src) = v.get_mut("source").and_then(|s| s.as_object_mut())
        && src.remove("lines").is_some()
    {
        omitted.insert("source".into(), more.source.into());
    }
    let mut dropped = 0usize;
    let kept = v["locals"].as_object().map_or(0, |m| m.len());
    while !fits(&with(&v, &omitted)) {
        let Some(locals) = v.get_mut("locals").and_then(|l| l.as_object_mut()) else {
            break;
        };
        let Some(last) = locals.keys().next_back().cloned() else {
            break;
        };
        locals.remove(&last);
        dropped += 1;
        // The map is in name order, not the adapter's: no page start
        // would match, so the handle lists them all.
        omitted.insert(
            "locals".into(),
            format!(
                "{} of {all_locals}: {}",
                all_locals.saturating_sub(kept - dropped),
                more.locals
            )
            .into(),
        );
    }
    while !fits(&with(&v, &omitted)) {
        let Some(stack) = v.get_mut("stack").and_then(|s| s.as_array_mut()) else {
            break;
        };
        if stack.len() <= 1 {
            break;
        }
        stack.pop();
        omitted.insert("stack".into(), more.stack.into());
    }
    serde_json::to_string(&with(&v, &omitted)).unwrap_or_default()
}

fn with(
    v: &serde_json::Value,
    omitted: &serde_json::Map<String, serde_json::Value>,
) -> serde_json::Value {
    let mut v = v.clone();
    if !omitted.is_empty() {
        v["omitted"] = serde_json::Value::Object(omitted.clone());
    }
    v
}

/// The last guard: a result still over budget (a long note on others'
/// changes, say) loses lines from its end, keeping the epoch footer.
pub fn enforce(text: &mut String, bytes: usize) {
    if text.len() <= bytes {
        return;
    }
    const MORE: &str = "\n… cut to fit max_tokens; ask again with more";
    let (body, footer) = match text.rfind("\n[session ") {
        Some(i) => (&text[..i], &text[i..]),
        None => (text.as_str(), ""),
    };
    let room = bytes.saturating_sub(footer.len() + MORE.len());
    let cut_text = format!("{}{MORE}{footer}", cut(body, room));
    *text = cut(&cut_text, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_keeps_the_head_and_ends_with_the_handle() {
        let text = (0..100)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let fit = Fit::new(&text, 2, |i| format!("… {} more: start={i}", 100 - i));
        let out = fit.render(120);
        assert!(out.len() <= 120, "{out}");
        assert!(out.starts_with("line 0\nline 1\n"), "{out}");
        let last = out.lines().last().unwrap();
        let kept = out.lines().count() - 1;
        assert_eq!(last, format!("… {} more: start={kept}", 100 - kept));
    }

    #[test]
    fn a_body_that_fits_is_untouched() {
        let fit = Fit::new("a\nb", 1, |_| "never".into());
        assert_eq!(fit.render(100), "a\nb");
    }

    #[test]
    fn out_of_range_budgets_name_the_field_and_the_range() {
        let e = check("max_tokens", Some(10)).unwrap_err().to_string();
        assert!(
            e.contains("max_tokens") && e.contains("50 to 250000"),
            "{e}"
        );
        assert_eq!(check("max_tokens", Some(200)).unwrap(), Some(800));
    }
}
