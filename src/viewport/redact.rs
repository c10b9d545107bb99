//! What an agent must not read: values that look like secrets, by their
//! own shape (an AWS key, a GitHub token, a JWT, a private key) or by the
//! name they are kept under (`password`, `api_key`). The person's TUI never
//! goes through here; every agent front end does, on the values before they
//! are rendered, so the rest of the text is left as it was.

use crate::sync::Locked;
use std::sync::{Arc, LazyLock, Mutex, Weak};

use crate::session::autopsy::{ContextVar, ExceptionContext};
use crate::session::secrets::harmless;
pub use crate::session::secrets::{Taint, is_secret_name, mask, text};
use crate::session::types::{Snapshot, SourceFile, Var};

/// Masks a value in place. `inherited`: it lies under a secret's name (a
/// field of `credentials`), so all of it is hidden.
pub fn var(v: &mut Var, inherited: bool, taint: &Taint) {
    let secret = inherited || is_secret_name(&v.name);
    if secret && !crate::adapters::plain_values::says_nothing(v.language.0, &v.value) {
        v.value = match v.length {
            Some(n) => format!("<redacted: {n} chars>"),
            None => mask(&v.value),
        };
        v.truncated = false;
        v.length = None;
        // Its parts would show it again; expanding it reads them masked.
        v.children = None;
        return;
    }
    v.value = text(&v.value, taint);
    for c in v.children.iter_mut().flatten() {
        var(c, secret, taint);
    }
}

pub fn vars(vs: &mut [Var], inherited: bool, taint: &Taint) {
    for v in vs {
        var(v, inherited, taint);
    }
}

/// True when a path (`creds.token`, `cfg["api_key"]`) passes through a
/// secret's name: everything under it is hidden.
pub fn path_is_secret(path: &str) -> bool {
    is_secret_name(path)
}

/// A file's lines masked by shape and by name: a file is shared by the
/// sessions that show it, so no one session's given secrets apply.
fn source(f: &SourceFile) -> SourceFile {
    let shared = Taint::default();
    SourceFile {
        path: f.path.clone(),
        lines: f.lines.iter().map(|l| text(l, &shared)).collect(),
    }
}

/// Masked files, kept while the session keeps the file itself: a stop
/// shares its unchanged files with the one before, and masking every line
/// of a runtime's long file at every step cost more than the step.
type MaskedFiles = Vec<(Weak<SourceFile>, Arc<SourceFile>)>;
static MASKED: LazyLock<Mutex<MaskedFiles>> = LazyLock::new(Default::default);

fn masked_source(f: &Arc<SourceFile>) -> Arc<SourceFile> {
    let mut masked = MASKED.locked();
    // A dropped file's address can be reused: forget those first.
    masked.retain(|(w, _)| w.strong_count() > 0);
    if let Some((_, m)) = masked.iter().find(|(w, _)| w.as_ptr() == Arc::as_ptr(f)) {
        return m.clone();
    }
    let m = Arc::new(source(f));
    masked.push((Arc::downgrade(f), m.clone()));
    m
}

/// A snapshot as an agent may see it.
pub fn snapshot(snap: &Snapshot) -> Snapshot {
    let mut s = snap.clone();
    let taint = &snap.taint;
    if let Some(stop) = s.stop.as_mut() {
        vars(&mut stop.locals, false, taint);
        for c in &mut stop.callers {
            vars(&mut c.vars, false, taint);
        }
        if let Some(e) = stop.exception.as_mut() {
            e.message = text(&e.message, taint);
        }
        if let Some(d) = stop.description.as_mut() {
            *d = text(d, taint);
        }
        if let Some(src) = stop.source.as_mut() {
            *src = masked_source(src);
        }
        for f in &mut stop.files {
            *f = masked_source(f);
        }
        if let Some(h) = stop.hit.as_mut() {
            hit(h, None, taint);
        }
    }
    for w in &mut s.watches {
        let secret = is_secret_name(&w.expression);
        match &mut w.value {
            Ok(v) => var(v, secret, taint),
            Err(e) => *e = text(e, taint),
        }
    }
    for b in &mut s.breakpoints {
        if let Some(c) = b.condition.as_mut() {
            *c = text(c, taint);
        }
    }
    for n in &mut s.notes {
        n.text = text(&n.text, taint);
    }
    for c in &mut s.changes {
        c.what = text(&c.what, taint);
    }
    if let Some(e) = s.exit.as_mut() {
        e.summary = text(&e.summary, taint);
    }
    if let Some(e) = s.error.as_mut() {
        *e = text(e, taint);
    }
    s
}

/// A hit as pushed or waited for: its message and exception masked.
pub fn hit(h: &mut crate::session::hits::BreakpointHit, template: Option<&str>, taint: &Taint) {
    if let Some(m) = h.log_message.as_mut() {
        *m = trace_message(template, m, taint);
    }
    if let Some(x) = h.exception_info.as_mut() {
        x.message = text(&x.message, taint);
    }
}

/// A tracepoint's message, masked: each `{expr}` of its template whose
/// expression is named like a secret is hidden, found by matching the
/// template's literal text; the rest goes through `text`.
pub fn trace_message(template: Option<&str>, message: &str, taint: &Taint) -> String {
    let masked = template.and_then(|t| mask_placeholders(t, message));
    text(masked.as_deref().unwrap_or(message), taint)
}

/// The template's literal runs and `{expr}` placeholders, `{{`/`}}` literal.
fn template_parts(t: &str) -> Vec<(bool, String)> {
    let mut parts: Vec<(bool, String)> = vec![(false, String::new())];
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                push_literal(&mut parts, '{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                push_literal(&mut parts, '}');
            }
            '{' => {
                let mut expr = String::new();
                let mut depth = 0;
                for c in chars.by_ref() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        _ => {}
                    }
                    expr.push(c);
                }
                parts.push((true, expr));
                parts.push((false, String::new()));
            }
            c => push_literal(&mut parts, c),
        }
    }
    parts
}

fn push_literal(parts: &mut [(bool, String)], c: char) {
    if let Some((false, s)) = parts.last_mut() {
        s.push(c);
    }
}

fn mask_placeholders(template: &str, message: &str) -> Option<String> {
    let parts = template_parts(template);
    if !parts.iter().any(|(p, e)| *p && is_secret_name(e)) {
        return None;
    }
    let mut out = String::new();
    let mut rest = message;
    let mut i = 0;
    while i < parts.len() {
        let (is_expr, s) = &parts[i];
        if !is_expr {
            rest = rest.strip_prefix(s.as_str())?;
            out.push_str(s);
            i += 1;
            continue;
        }
        // The value runs to where the next literal run starts.
        let next = parts.get(i + 1).map(|(_, l)| l.as_str()).unwrap_or("");
        let end = if next.is_empty() {
            if i + 2 >= parts.len() {
                rest.len()
            } else {
                // Two placeholders back to back cannot be told apart.
                return Some(mask(message));
            }
        } else {
            rest.find(next)?
        };
        let value = &rest[..end];
        out.push_str(&if is_secret_name(s) && !harmless(value) {
            mask(value)
        } else {
            value.to_string()
        });
        rest = &rest[end..];
        i += 1;
    }
    Some(out)
}

fn context_var(v: &mut ContextVar, taint: &Taint) {
    v.value = if is_secret_name(&v.name) && !harmless(&v.value) {
        mask(&v.value)
    } else {
        text(&v.value, taint)
    };
}

/// An exception's context as an agent may see it.
pub fn exception_context(c: &mut ExceptionContext, taint: &Taint) {
    c.exception.message = text(&c.exception.message, taint);
    c.exception.stack_trace_string = text(&c.exception.stack_trace_string, taint);
    for i in &mut c.inner_exceptions {
        i.message = text(&i.message, taint);
    }
    for f in &mut c.frames {
        for v in f.arguments.iter_mut().flatten() {
            context_var(v, taint);
        }
        if let Some(vs) = f.variables.as_mut() {
            for v in &mut vs.locals {
                context_var(v, taint);
            }
        }
    }
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_var_hides_itself_and_its_parts() {
        let mut v = Var {
            name: "password".into(),
            value: "'hunter2'".into(),
            type_name: "str".into(),
            ..Default::default()
        };
        var(&mut v, false, &Taint::default());
        assert_eq!(v.value, "<redacted: 7 chars>");
        let mut d = Var {
            name: "cfg".into(),
            value: "{'api_key': 'k'}".into(),
            type_name: "dict".into(),
            children: Some(vec![Var {
                name: "'api_key'".into(),
                value: "'k'".into(),
                ..Default::default()
            }]),
            ..Default::default()
        };
        var(&mut d, false, &Taint::default());
        assert_eq!(d.value, "{'api_key': <redacted: 1 chars>}");
        assert_eq!(d.children.unwrap()[0].value, "<redacted: 1 chars>");
    }

    #[test]
    fn tracepoint_placeholders_named_like_secrets() {
        assert_eq!(
            trace_message(
                Some("user={user} pw={password}!"),
                "user=bob pw=hunter2!",
                &Taint::default()
            ),
            "user=bob pw=<redacted: 7 chars>!"
        );
        assert_eq!(
            trace_message(Some("n={n}"), "n=3", &Taint::default()),
            "n=3"
        );
        assert_eq!(
            trace_message(Some("{{k}} {api_key}"), "{k} 'x'", &Taint::default()),
            "{k} <redacted: 1 chars>"
        );
    }

    #[test]
    fn a_file_is_masked_once_while_it_lives() {
        let f = Arc::new(SourceFile {
            path: "app.py".into(),
            lines: vec!["password = 'hunter2'".into(), "x = 1".into()],
        });
        let a = masked_source(&f);
        assert!(!a.lines[0].contains("hunter2"), "{:?}", a.lines);
        assert_eq!(a.lines[1], "x = 1");
        assert!(
            Arc::ptr_eq(&a, &masked_source(&f)),
            "the same file is not masked again"
        );
        let g = Arc::new(SourceFile {
            path: "app.py".into(),
            lines: vec!["token = 'abc123456'".into()],
        });
        assert!(!masked_source(&g).lines[0].contains("abc123456"));
    }
}
