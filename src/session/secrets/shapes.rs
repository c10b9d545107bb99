//! Secrets found in a piece of text by their own shape (an AWS key, a
//! GitHub token, a JWT, a private key, a literal random enough to be a
//! key) or by the name written before them (`'token': 'x'`, `pw = 'x'`).

use std::sync::LazyLock;

use regex::Regex;

use super::is_secret_name;

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

/// Values that say nothing even under a secret's name, in any language
/// (the text masked here is not tied to one).
pub fn harmless(value: &str) -> bool {
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

/// The credential shapes, values kept under secret names, and literals
/// random enough to be keys, masked.
pub fn mask_all(s: &str) -> String {
    mask_random_literals(&mask_keyed(&mask_patterns(s)))
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
