//! What an agent must not read: values that look like secrets, by their
//! own shape (an AWS key, a GitHub token, a JWT, a private key) or by the
//! name they are kept under (`password`, `api_key`). The person's TUI never
//! goes through here; every agent front end does, on the values before they
//! are rendered, so the rest of the text is left as it was.

use std::sync::{Arc, LazyLock, Mutex, Weak};

use regex::Regex;

use crate::session::autopsy::{ContextVar, ExceptionContext};
use crate::session::types::{Snapshot, SourceFile, Var};

/// What stands in for a hidden value: how long it was, never what it was.
/// A string literal's length is its text's, without the quotes.
pub fn mask(hidden: &str) -> String {
    format!("<redacted: {} chars>", literal_text(hidden).chars().count())
}

fn literal_text(s: &str) -> &str {
    let body = s.trim_start_matches(['b', 'r', 'f', 'u']);
    for q in ['\'', '"'] {
        if body.len() >= 2
            && body.starts_with(q)
            && body.ends_with(q)
            && let Some(inner) = body.get(1..body.len() - 1)
        {
            return inner;
        }
    }
    s
}

/// Name segments that mark a secret on their own.
const WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "secrets",
    "token",
    "apikey",
    "auth",
    "authorization",
    "credential",
    "credentials",
    "pw",
    "pwd",
    "pass",
    "passcode",
];

/// Adjacent segments that do (`api_key`, `privateKey`).
const PAIRS: &[(&str, &str)] = &[("api", "key"), ("private", "key"), ("access", "key")];

/// A name's words, lower case: `self.apiKey['x']` is self, api, key, x.
fn segments(name: &str) -> Vec<String> {
    let mut out = vec![];
    let mut word = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !c.is_ascii_alphanumeric() {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            prev_lower = false;
            continue;
        }
        // camelCase splits where a capital follows a small letter.
        if c.is_ascii_uppercase() && prev_lower && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        word.push(c.to_ascii_lowercase());
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// True when a variable, key or expression is named like a secret. Whole
/// words only: `author` and `tokens` are not.
pub fn is_secret_name(name: &str) -> bool {
    let words = segments(name);
    words.iter().any(|w| WORDS.contains(&w.as_str()))
        || words
            .windows(2)
            .any(|p| PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}

/// Values that say nothing even under a secret's name, in any language
/// (the text masked here is not tied to one).
fn harmless(value: &str) -> bool {
    crate::adapters::plain_values::says_nothing(None, value)
}

/// Well-known shapes of credentials. A group 1, where there is one, is the
/// part hidden; otherwise the whole match is.
static PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
        r"\bgh[pousr]_[A-Za-z0-9]{30,}",
        r"\bgithub_pat_[A-Za-z0-9_]{20,}",
        r"\bxox[abposr]-[A-Za-z0-9-]{10,}",
        r"\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}",
        r"\bsk-[A-Za-z0-9_-]{20,}",
        r"\b[srp]k_(?:live|test)_[A-Za-z0-9]{16,}",
        r"\bwhsec_[A-Za-z0-9]{16,}",
        r"\bAIza[0-9A-Za-z_-]{35}",
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z ]*PRIVATE KEY-----|$)",
        r"\b[Bb]earer\s+([A-Za-z0-9\-._~+/]{8,}=*)",
        r"://[^/\s:@]+:([^/\s@]+)@",
        // A secret given on a command line: `--token X`, `--password=X`,
        // and as an argv list's next item, `'--token', 'X'`.
        r#"(?i)--?(?:token|password|passwd|pass|pw|secret|api[-_]?key|auth|access[-_]?key|private[-_]?key)(?:=|\s+|['"],\s*['"])([^\s'",\]]{3,})"#,
    ]
    .iter()
    .filter_map(|p| Regex::new(p).ok())
    .collect()
});

/// A name and its separator: `'token': `, `password=`, `api_key = `.
static KEYED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(['"]?)([A-Za-z_][A-Za-z0-9_-]*)(['"]?)[ \t]*(?::|=)[ \t]*"#).ok()
});

/// Masks the credential shapes anywhere in `text`.
fn mask_patterns(text: &str) -> String {
    let mut out = text.to_string();
    for re in PATTERNS.iter() {
        if !re.is_match(&out) {
            continue;
        }
        out = re
            .replace_all(&out, |c: &regex::Captures| match c.get(1) {
                Some(g) => {
                    let whole = c.get(0).map(|m| m.as_str()).unwrap_or_default();
                    let at = g.start() - c.get(0).map(|m| m.start()).unwrap_or(0);
                    format!(
                        "{}{}{}",
                        &whole[..at],
                        mask(g.as_str()),
                        &whole[at + g.len()..]
                    )
                }
                None => mask(c.get(0).map(|m| m.as_str()).unwrap_or_default()),
            })
            .into_owned();
    }
    out
}

/// The length of the value that starts `rest`: a quoted literal, a
/// bracketed group, or a bare token.
fn value_len(rest: &str) -> usize {
    let b = rest.as_bytes();
    let mut i = 0;
    // String prefixes: b'', r"", f''.
    while i < b.len() && i < 2 && matches!(b[i], b'b' | b'r' | b'f' | b'u' | b'B' | b'R') {
        i += 1;
    }
    if i < b.len() && matches!(b[i], b'\'' | b'"') {
        return quoted_len(rest, i);
    }
    match b.first() {
        Some(b'(' | b'[' | b'{' | b'<') => bracketed_len(rest),
        _ => rest
            .find(|c: char| c.is_whitespace() || ",)]}>;".contains(c))
            .unwrap_or(rest.len()),
    }
}

/// The end of the literal whose quote is at `at`, escapes honoured; the
/// rest of the text when it is cut before it closes.
fn quoted_len(s: &str, at: usize) -> usize {
    let b = s.as_bytes();
    let q = b[at];
    let mut i = at + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == q => return i + 1,
            _ => i += 1,
        }
    }
    s.len()
}

fn bracketed_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\'' | b'"' => {
                i = quoted_len(s, i);
                continue;
            }
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    s.len()
}

/// Masks what is kept under a secret's name inside a repr or a line:
/// `{'token': 'abc'}`, `Login(password='x')`, `api_key = "x"`.
fn mask_keyed(text: &str) -> String {
    let Some(re) = KEYED.as_ref() else {
        return text.to_string();
    };
    let mut out = String::new();
    let mut last = 0;
    for c in re.captures_iter(text) {
        let (Some(whole), Some(key)) = (c.get(0), c.get(2)) else {
            continue;
        };
        if whole.start() < last
            || c.get(1).map(|m| m.as_str()) != c.get(3).map(|m| m.as_str())
            || !is_secret_name(key.as_str())
        {
            continue;
        }
        let rest = &text[whole.end()..];
        // A comparison (`==`), an annotation's `=` of `:=`, or an arrow.
        if rest.starts_with(['=', '>']) || text[..whole.end()].ends_with("==") {
            continue;
        }
        let len = value_len(rest);
        let value = &rest[..len];
        if len == 0 || harmless(value) || value.starts_with("<redacted") {
            continue;
        }
        out.push_str(&text[last..whole.end()]);
        out.push_str(&mask(value));
        last = whole.end() + len;
    }
    out.push_str(&text[last..]);
    out
}

/// A piece of text with every secret in it masked: the credential shapes,
/// values kept under secret names, string literals that look random enough
/// to be keys, and any value the program was given as a secret.
pub fn text(s: &str) -> String {
    mask_tainted(&mask_random_literals(&mask_keyed(&mask_patterns(s))))
}

/// Values the program was handed as secrets (under a secret's name in its
/// environment, or after a secret's flag on its command line): masked
/// wherever they appear later, under any name.
static TAINTED: LazyLock<Mutex<Vec<String>>> = LazyLock::new(Default::default);

/// The shortest value worth following: shorter ones would mask common text.
const TAINT_MIN_CHARS: usize = 6;

/// Remembers the secrets of a launch: env values under secret names and
/// arguments that follow a secret's flag.
pub fn taint_launch(env: &[(String, String)], args: &[String]) {
    let mut found: Vec<String> = env
        .iter()
        .filter(|(k, _)| is_secret_name(k))
        .map(|(_, v)| v.clone())
        .collect();
    for (i, a) in args.iter().enumerate() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) => (f, Some(v)),
            None => (a.as_str(), None),
        };
        if !flag.starts_with('-') || !is_secret_name(flag.trim_start_matches('-')) {
            continue;
        }
        match inline {
            Some(v) => found.push(v.to_string()),
            None => found.extend(args.get(i + 1).cloned()),
        }
    }
    let mut tainted = TAINTED.lock().unwrap_or_else(|p| p.into_inner());
    for v in found {
        if v.chars().count() >= TAINT_MIN_CHARS && !tainted.contains(&v) {
            tainted.push(v);
        }
    }
}

fn mask_tainted(text: &str) -> String {
    let tainted = TAINTED.lock().unwrap_or_else(|p| p.into_inner());
    let mut out = text.to_string();
    for v in tainted.iter() {
        if out.contains(v.as_str()) {
            out = out.replace(v.as_str(), &mask(v));
        }
    }
    out
}

/// A quoted literal with no spaces, 20 to 256 characters long.
static LITERAL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"(["'])([^\s"']{20,256})(["'])"#).ok());

/// Masks string literals random enough to be keys: mixed letters and
/// digits with more than 4.2 bits of entropy per character. A hex digest
/// (at most 4 bits) or a UUID is not one; a base64 API key is.
fn mask_random_literals(text: &str) -> String {
    let Some(re) = LITERAL.as_ref() else {
        return text.to_string();
    };
    if !re.is_match(text) {
        return text.to_string();
    }
    re.replace_all(text, |c: &regex::Captures| {
        let whole = c.get(0).map(|m| m.as_str()).unwrap_or_default();
        let body = c.get(2).map(|m| m.as_str()).unwrap_or_default();
        let same_quote = c.get(1).map(|m| m.as_str()) == c.get(3).map(|m| m.as_str());
        if same_quote && looks_random(body) {
            mask(whole)
        } else {
            whole.to_string()
        }
    })
    .into_owned()
}

fn looks_random(s: &str) -> bool {
    if s.starts_with("<redacted") || s.contains(['/', '.']) && !s.contains(['+', '=']) {
        // Paths and dotted names are not keys.
        return false;
    }
    let classes = [
        s.chars().any(|c| c.is_ascii_lowercase()),
        s.chars().any(|c| c.is_ascii_uppercase()),
        s.chars().any(|c| c.is_ascii_digit()),
    ];
    if classes.iter().filter(|c| **c).count() < 3 {
        return false;
    }
    let mut counts = std::collections::HashMap::new();
    for c in s.chars() {
        *counts.entry(c).or_insert(0usize) += 1;
    }
    let n = s.chars().count() as f64;
    let entropy: f64 = counts
        .values()
        .map(|&k| {
            let p = k as f64 / n;
            -p * p.log2()
        })
        .sum();
    // Short strings cannot reach high entropy: scale the bar with length.
    entropy > 4.2_f64.min(n.log2() - 0.3)
}

/// Masks a value in place. `inherited`: it lies under a secret's name (a
/// field of `credentials`), so all of it is hidden.
pub fn var(v: &mut Var, inherited: bool) {
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
    v.value = text(&v.value);
    for c in v.children.iter_mut().flatten() {
        var(c, secret);
    }
}

pub fn vars(vs: &mut [Var], inherited: bool) {
    for v in vs {
        var(v, inherited);
    }
}

/// True when a path (`creds.token`, `cfg["api_key"]`) passes through a
/// secret's name: everything under it is hidden.
pub fn path_is_secret(path: &str) -> bool {
    is_secret_name(path)
}

fn source(f: &SourceFile) -> SourceFile {
    SourceFile {
        path: f.path.clone(),
        lines: f.lines.iter().map(|l| text(l)).collect(),
    }
}

/// Masked files, kept while the session keeps the file itself: a stop
/// shares its unchanged files with the one before, and masking every line
/// of a runtime's long file at every step cost more than the step.
type MaskedFiles = Vec<(Weak<SourceFile>, Arc<SourceFile>)>;
static MASKED: LazyLock<Mutex<MaskedFiles>> = LazyLock::new(Default::default);

fn masked_source(f: &Arc<SourceFile>) -> Arc<SourceFile> {
    let mut masked = MASKED.lock().unwrap_or_else(|p| p.into_inner());
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
    if let Some(stop) = s.stop.as_mut() {
        vars(&mut stop.locals, false);
        for c in &mut stop.callers {
            vars(&mut c.vars, false);
        }
        if let Some(e) = stop.exception.as_mut() {
            e.message = text(&e.message);
        }
        if let Some(src) = stop.source.as_mut() {
            *src = masked_source(src);
        }
        for f in &mut stop.files {
            *f = masked_source(f);
        }
        if let Some(h) = stop.hit.as_mut() {
            hit(h, None);
        }
    }
    for w in &mut s.watches {
        let secret = is_secret_name(&w.expression);
        match &mut w.value {
            Ok(v) => var(v, secret),
            Err(e) => *e = text(e),
        }
    }
    for b in &mut s.breakpoints {
        if let Some(c) = b.condition.as_mut() {
            *c = text(c);
        }
    }
    s
}

/// A hit as pushed or waited for: its message and exception masked.
pub fn hit(h: &mut crate::session::hits::BreakpointHit, template: Option<&str>) {
    if let Some(m) = h.log_message.as_mut() {
        *m = trace_message(template, m);
    }
    if let Some(x) = h.exception_info.as_mut() {
        x.message = text(&x.message);
    }
}

/// A tracepoint's message, masked: each `{expr}` of its template whose
/// expression is named like a secret is hidden, found by matching the
/// template's literal text; the rest goes through `text`.
pub fn trace_message(template: Option<&str>, message: &str) -> String {
    let masked = template.and_then(|t| mask_placeholders(t, message));
    text(masked.as_deref().unwrap_or(message))
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

fn context_var(v: &mut ContextVar) {
    v.value = if is_secret_name(&v.name) && !harmless(&v.value) {
        mask(&v.value)
    } else {
        text(&v.value)
    };
}

/// An exception's context as an agent may see it.
pub fn exception_context(c: &mut ExceptionContext) {
    c.exception.message = text(&c.exception.message);
    c.exception.stack_trace_string = text(&c.exception.stack_trace_string);
    for i in &mut c.inner_exceptions {
        i.message = text(&i.message);
    }
    for f in &mut c.frames {
        for v in f.arguments.iter_mut().flatten() {
            context_var(v);
        }
        if let Some(vs) = f.variables.as_mut() {
            vs.locals.iter_mut().for_each(context_var);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_by_value_flag_and_short_names() {
        let t = text("{'user': 'ann', 'pass': 'hunter2'}");
        assert!(!t.contains("hunter2"), "{t}");
        let t = text("pw = 'opensesame'");
        assert!(!t.contains("opensesame"), "{t}");
        let t = text("['app.py', '--token', 'tok123456']");
        assert!(!t.contains("tok123456"), "{t}");
        let t = text("--password=s3cr3tpass --verbose");
        assert!(!t.contains("s3cr3tpass") && t.contains("--verbose"), "{t}");
        let t = text("key = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc'");
        assert!(!t.contains("4eC39HqLyjWDarjtT1zdp7dc"), "{t}");
        // Random enough to be a key, under an innocent name.
        let t = text("x = 'Zx9qT2mLp8VwR4nK7bYc3HdJ'");
        assert!(!t.contains("Zx9qT2mLp8VwR4nK7bYc3HdJ"), "{t}");
        // Not keys: a digest, a uuid, a path, words.
        for keep in [
            "'da39a3ee5e6b4b0d3255bfef95601890afd80709'",
            "'123e4567-e89b-12d3-a456-426614174000'",
            "'/usr/lib/python3/dist-packages/Module1'",
            "'HelloWorldThisIsAnOrdinaryName'",
        ] {
            assert_eq!(text(keep), keep);
        }
    }

    #[test]
    fn a_secret_given_at_launch_is_masked_under_any_name() {
        taint_launch(
            &[("API_KEY".into(), "live-abcdef-778899".into())],
            &["--password".into(), "Tr0ub4dor&3".into()],
        );
        let t = text("k = 'live-abcdef-778899'");
        assert!(!t.contains("live-abcdef-778899"), "{t}");
        let t = text("argv[2] = 'Tr0ub4dor&3'");
        assert!(!t.contains("Tr0ub4dor&3"), "{t}");
    }

    #[test]
    fn names_are_whole_words() {
        for n in [
            "password",
            "db_password",
            "apiKey",
            "API_KEY",
            "'token'",
            "self.auth",
            "private_key",
            "AccessKey",
            "cfg[\"api_key\"]",
        ] {
            assert!(is_secret_name(n), "{n}");
        }
        for n in ["author", "tokens", "max_tokens", "keys", "passage", "key"] {
            assert!(!is_secret_name(n), "{n}");
        }
    }

    #[test]
    fn credential_shapes_are_masked_with_their_length() {
        let aws = "AKIAIOSFODNN7EXAMPLE";
        assert_eq!(text(&format!("'{aws}'")), "'<redacted: 20 chars>'");
        assert_eq!(mask("'hunter2'"), "<redacted: 7 chars>");
        let gh = format!("ghp_{}", "a".repeat(36));
        assert_eq!(text(&gh), "<redacted: 40 chars>");
        assert_eq!(
            text("'Bearer abcdefghijkl'"),
            "'Bearer <redacted: 12 chars>'"
        );
        assert_eq!(
            text("postgres://bob:hunter2@db/x"),
            "postgres://bob:<redacted: 7 chars>@db/x"
        );
        let pem = "-----BEGIN RSA PRIVATE KEY-----\\nMIIE\\n-----END RSA PRIVATE KEY-----";
        assert_eq!(text(pem), mask(pem));
        assert_eq!(text("eyJhbGc.eyJzdWIi.sig_1234"), "<redacted: 25 chars>");
        assert_eq!(text("'hello world'"), "'hello world'");
    }

    #[test]
    fn keyed_values_inside_reprs() {
        assert_eq!(
            text("{'user': 'bob', 'token': 'abc123'}"),
            "{'user': 'bob', 'token': <redacted: 6 chars>}"
        );
        assert_eq!(
            text("Login(password='x y', n=3)"),
            "Login(password=<redacted: 3 chars>, n=3)"
        );
        assert_eq!(
            text("{'auth': ('bob', 'pw')}"),
            "{'auth': <redacted: 13 chars>}"
        );
        assert_eq!(text("if password == other:"), "if password == other:");
        assert_eq!(text("{'token': None}"), "{'token': None}");
    }

    #[test]
    fn a_secret_var_hides_itself_and_its_parts() {
        let mut v = Var {
            name: "password".into(),
            value: "'hunter2'".into(),
            type_name: "str".into(),
            ..Default::default()
        };
        var(&mut v, false);
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
        var(&mut d, false);
        assert_eq!(d.value, "{'api_key': <redacted: 1 chars>}");
        assert_eq!(d.children.unwrap()[0].value, "<redacted: 1 chars>");
    }

    #[test]
    fn tracepoint_placeholders_named_like_secrets() {
        assert_eq!(
            trace_message(Some("user={user} pw={password}!"), "user=bob pw=hunter2!"),
            "user=bob pw=<redacted: 7 chars>!"
        );
        assert_eq!(trace_message(Some("n={n}"), "n=3"), "n=3");
        assert_eq!(
            trace_message(Some("{{k}} {api_key}"), "{k} 'x'"),
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
