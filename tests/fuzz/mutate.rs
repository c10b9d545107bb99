//! Mutations of corpus entries: blind byte edits, splices between entries,
//! and edits that keep JSON well formed while making its values hostile.

use fastrand::Rng;
use serde_json::Value;

/// Fragments that byte-level mutation likes to plant: framing, escapes and
/// numbers at the edges of what a parser takes.
const TOKENS: &[&[u8]] = &[
    b"\r\n\r\n",
    b"Content-Length: ",
    b"Content-Length: 52428800\r\n\r\n",
    b"Content-Length: 18446744073709551616\r\n\r\n",
    b"Content-Length: -1\r\n\r\n",
    b"\\u0000",
    b"\\ud800",
    b"\\udfff\\ud800",
    b"\xff\xfe",
    b"\xc3\x28",
    b"\x1b[31m",
    b"null",
    b"true",
    b"{}",
    b"[]",
    b"-9223372036854775809",
    b"18446744073709551616",
    b"1e400",
    b"-0",
    b"\"\"",
    b"\t\n\r",
    b"${env:HOME}",
    b"${workspaceFolder}",
];

pub fn mutate(rng: &mut Rng, base: &[u8], corpus: &[Vec<u8>], max_len: usize) -> Vec<u8> {
    let mut out = base.to_vec();
    for _ in 0..rng.usize(1..=4) {
        if rng.u8(..) < 96
            && let Some(j) = json_mutation(rng, &out)
        {
            out = j;
        } else {
            byte_mutation(rng, &mut out, corpus);
        }
    }
    out.truncate(max_len);
    out
}

fn byte_mutation(rng: &mut Rng, out: &mut Vec<u8>, corpus: &[Vec<u8>]) {
    let len = out.len();
    match rng.u8(0..9) {
        0 if len > 0 => {
            let i = rng.usize(..len);
            out[i] ^= 1 << rng.u8(0..8);
        }
        1 if len > 0 => {
            let i = rng.usize(..len);
            out[i] = rng.u8(..);
        }
        2 => {
            let at = rng.usize(..=len);
            let n = rng.usize(1..=16);
            let bytes: Vec<u8> = (0..n).map(|_| rng.u8(..)).collect();
            out.splice(at..at, bytes);
        }
        3 if len > 0 => {
            let a = rng.usize(..len);
            let b = (a + rng.usize(1..=64)).min(len);
            out.drain(a..b);
        }
        4 => out.truncate(rng.usize(..=len)),
        5 if len > 0 => {
            // Repetition: a stretch doubled, or many times over.
            let a = rng.usize(..len);
            let b = (a + rng.usize(1..=32)).min(len);
            let piece = out[a..b].to_vec();
            let times = if rng.bool() { 1 } else { rng.usize(2..=200) };
            let repeated: Vec<u8> = piece
                .iter()
                .copied()
                .cycle()
                .take(piece.len() * times)
                .collect();
            out.splice(b..b, repeated);
        }
        6 if !corpus.is_empty() => {
            // Splice: our head with another entry's tail.
            let other = &corpus[rng.usize(..corpus.len())];
            let cut = rng.usize(..=len);
            let from = rng.usize(..=other.len());
            out.truncate(cut);
            out.extend_from_slice(&other[from..]);
        }
        _ => {
            let at = rng.usize(..=len);
            let token = TOKENS[rng.usize(..TOKENS.len())];
            out.splice(at..at, token.iter().copied());
        }
    }
}

/// Marks a string that is written out as a lone surrogate escape, which no
/// `serde_json::Value` can hold.
const LONE: &str = "\u{10FFFE}lone";

/// One value somewhere in the document (or in one line of a JSON-lines
/// document) replaced by a hostile one; None when it is not JSON.
fn json_mutation(rng: &mut Rng, bytes: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() > 1 {
        let i = rng.usize(..lines.len());
        let changed = json_mutation(rng, lines[i].as_bytes())?;
        let mut out = Vec::with_capacity(bytes.len());
        for (j, l) in lines.iter().enumerate() {
            if j == i {
                out.extend_from_slice(&changed);
            } else {
                out.extend_from_slice(l.as_bytes());
            }
            out.push(b'\n');
        }
        return Some(out);
    }
    let mut doc: Value = serde_json::from_str(text).ok()?;
    let count = count_nodes(&doc);
    let target = rng.usize(..count);
    let replacement = hostile(rng, &doc, target);
    replace_nth(&mut doc, target, &mut 0, replacement);
    let out = serde_json::to_string(&doc).ok()?;
    Some(
        out.replace(&format!("\"{LONE}\""), "\"\\ud800\"")
            .into_bytes(),
    )
}

fn count_nodes(v: &Value) -> usize {
    1 + match v {
        Value::Array(a) => a.iter().map(count_nodes).sum(),
        Value::Object(m) => m.values().map(count_nodes).sum(),
        _ => 0,
    }
}

fn nth(v: &Value, n: usize, seen: &mut usize) -> Option<Value> {
    if *seen == n {
        return Some(v.clone());
    }
    *seen += 1;
    match v {
        Value::Array(a) => a.iter().find_map(|x| nth(x, n, seen)),
        Value::Object(m) => m.values().find_map(|x| nth(x, n, seen)),
        _ => None,
    }
}

fn replace_nth(v: &mut Value, n: usize, seen: &mut usize, with: Value) -> Option<Value> {
    if *seen == n {
        *v = with;
        return None;
    }
    *seen += 1;
    let mut with = Some(with);
    match v {
        Value::Array(a) => {
            for x in a {
                with = replace_nth(x, n, seen, with?);
            }
        }
        Value::Object(m) => {
            for x in m.values_mut() {
                with = replace_nth(x, n, seen, with?);
            }
        }
        _ => {}
    }
    with
}

/// The most bytes a wide value's copies may add: wide, not exponential.
const WIDE_BYTES: usize = 1 << 20;

fn hostile(rng: &mut Rng, doc: &Value, target: usize) -> Value {
    let old = nth(doc, target, &mut 0).unwrap_or(Value::Null);
    let copies = |rng: &mut Rng, most: usize| {
        let size = serde_json::to_string(&old).map_or(1, |s| s.len() + 1);
        rng.usize(10..=most).min(WIDE_BYTES / size).max(1)
    };
    match rng.u8(0..12) {
        0 => Value::String("x".repeat(rng.usize(1_000..=200_000))),
        1 => {
            // Nesting past any sane depth, a little past serde_json's
            // own limit now and then.
            let depth = if rng.bool() {
                rng.usize(10..=60)
            } else {
                rng.usize(100..=140)
            };
            (0..depth).fold(old, |v, _| {
                if rng.bool() {
                    Value::Array(vec![v])
                } else {
                    serde_json::json!({ "a": v, "value": "v", "variablesReference": 1 })
                }
            })
        }
        2 => {
            let n = copies(rng, 5_000);
            Value::Array((0..n).map(|_| old.clone()).collect())
        }
        3 => match old {
            Value::String(_) => Value::from(rng.i64(..)),
            Value::Number(_) => Value::String(rng.i64(..).to_string()),
            Value::Bool(b) => Value::String(b.to_string()),
            Value::Null => Value::Object(Default::default()),
            Value::Array(_) => Value::String("[]".into()),
            Value::Object(_) => Value::Array(vec![]),
        },
        4 => {
            let s: String = (0..rng.usize(1..=64))
                .map(|_| char::from_u32(rng.u32(0..0x20)).unwrap_or('\0'))
                .chain("\u{7f}\u{85}\u{2028}\u{202e}\u{feff}\u{200b}".chars())
                .collect();
            Value::String(s)
        }
        5 => Value::String(LONE.into()),
        6 => Value::Null,
        7 => [
            Value::from(i64::MIN),
            Value::from(i64::MAX),
            Value::from(u64::MAX),
            Value::from(-1),
            Value::from(0),
            serde_json::json!(1.5e300),
            serde_json::json!(-0.0),
        ][rng.usize(..7)]
        .clone(),
        8 => Value::String("é漢🦀\u{0301}\u{fe0f}".repeat(rng.usize(1..=500))),
        9 => {
            let n = copies(rng, 2_000);
            Value::Object((0..n).map(|i| (format!("k{i}"), old.clone())).collect())
        }
        10 => Value::String(String::new()),
        _ => Value::Bool(rng.bool()),
    }
}
