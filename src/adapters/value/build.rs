//! Building values from what most adapters send: children read from the
//! adapter, and value texts written as literals (`[1, 'a']`,
//! `{'k': 2}`, `Item(name='a')`, `Some(3)`), the grammar Python's reprs
//! use and that other languages' texts are rewritten to.

use super::literal::{self, Repr};
use super::{Count, Raw, Value};

/// How a container's children are laid out, where its language knows from
/// its type; otherwise the children's names tell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Layout {
    Seq(char, char),
    Map,
    Object,
}

/// A value from the children read: elements named `[0]`, `[1]`.. (or a
/// sequence `layout`) make a sequence, keys a map, other names an object's
/// fields. `child` builds each child's own value.
pub fn from_children(
    raw: &dyn Raw,
    children: &[&dyn Raw],
    layout: Option<Layout>,
    child: &dyn Fn(&dyn Raw) -> Value,
) -> Value {
    // A pointer's one unnamed child is what it points to.
    if let [target] = children
        && target.name().is_empty()
    {
        return child(*target);
    }
    let members: Vec<&dyn Raw> = children
        .iter()
        .copied()
        .filter(|c| !c.hidden() && c.name() != "len()")
        .collect();
    if let [only] = members.as_slice()
        && only.name().starts_with('*')
    {
        return child(*only);
    }
    let len = raw
        .indexed()
        .or_else(|| {
            children
                .iter()
                .find(|c| c.name() == "len()")
                .and_then(|c| c.text().parse().ok())
        })
        .unwrap_or(members.len());
    let count = Count::Exact(len.max(members.len()));
    let indexed = !members.is_empty() && members.iter().all(|c| is_index(c.name()));
    let t = raw.type_name();
    // `("a", 1)` pairs under a `..Map` type are its entries.
    let pairs: Option<Vec<(Value, Value)>> = (indexed && super::short_type(t).ends_with("Map"))
        .then(|| members.iter().map(|c| pair(c.text())).collect())
        .flatten();
    if let Some(entries) = pairs {
        return Value::Map {
            type_name: t.to_string(),
            entries,
            count,
        };
    }
    let layout = layout.unwrap_or(if indexed {
        Layout::Seq('[', ']')
    } else {
        Layout::Object
    });
    match layout {
        Layout::Seq(open, close) => Value::Seq {
            type_name: t.to_string(),
            open,
            close,
            items: members.iter().map(|c| child(*c)).collect(),
            count,
        },
        Layout::Map => Value::Map {
            type_name: t.to_string(),
            entries: members.iter().map(|c| (key(c.name()), child(*c))).collect(),
            count,
        },
        Layout::Object => Value::Object {
            type_name: t.to_string(),
            fields: members
                .iter()
                .map(|c| (c.name().to_string(), child(*c)))
                .collect(),
            more: false,
        },
    }
}

/// A map key as its child's name writes it: `'gold'` is a string.
fn key(name: &str) -> Value {
    from_literal(name, "", false, None)
}

fn pair(text: &str) -> Option<(Value, Value)> {
    match literal::parse(text) {
        Repr::Seq {
            open: '(',
            items,
            cut: false,
        } if items.len() == 2 => Some((
            from_literal(items[0], "", false, None),
            from_literal(items[1], "", false, None),
        )),
        _ => None,
    }
}

fn is_index(name: &str) -> bool {
    name.strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .is_some_and(|n| n.parse::<u64>().is_ok())
}

/// A string literal (`'a'`, `"a"`, `b'a'`), or its start when `cut`.
pub fn text_value(text: &str, cut: bool, length: Option<usize>) -> Option<Value> {
    let (prefix, body) = match text.strip_prefix('b') {
        Some(rest) if rest.starts_with(['\'', '"']) => ("b", rest),
        _ => ("", text),
    };
    let inner = body
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| body.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        .filter(|_| body.len() >= 2)
        .or_else(|| {
            (cut && body.starts_with(['\'', '"'])).then(|| body.trim_start_matches(['\'', '"']))
        })?;
    Some(Value::Text {
        text: inner.to_string(),
        prefix: prefix.to_string(),
        cut,
        length,
    })
}

/// A value from its literal text: collections split into their items,
/// calls into objects or variants, strings unquoted; anything else is an
/// atom. `type_name` names a collection's kind where the text does not.
pub fn from_literal(text: &str, type_name: &str, cut: bool, length: Option<usize>) -> Value {
    let t = text.trim();
    if let Some(s) = text_value(t, cut, length) {
        return s;
    }
    let typed = !type_name.is_empty() && type_name != "?";
    match literal::parse(t) {
        Repr::Seq { open, items, cut } => {
            let is_map = open == '{' && items.first().is_some_and(|i| split_pair(i).is_some());
            let n = items.len();
            let count = if cut {
                Count::AtLeast(n)
            } else {
                Count::Exact(n)
            };
            // `{...}`: the adapter did not read this level at all.
            if cut && n == 0 {
                let what = match open {
                    _ if typed => type_name,
                    '[' => "list",
                    '(' => "tuple",
                    _ => "dict or set",
                };
                return Value::Unreadable {
                    what: what.to_string(),
                    why: "not read".into(),
                };
            }
            let label = match open {
                _ if typed => type_name,
                '[' => "list",
                '(' => "tuple",
                _ if is_map => "dict",
                _ => "set",
            };
            if is_map {
                let entries = items
                    .iter()
                    .filter_map(|i| split_pair(i))
                    .map(|(k, v)| {
                        (
                            from_literal(k, "", false, None),
                            from_literal(v, "", false, None),
                        )
                    })
                    .collect();
                return Value::Map {
                    type_name: label.to_string(),
                    entries,
                    count,
                };
            }
            let close = match open {
                '[' => ']',
                '(' => ')',
                _ => '}',
            };
            Value::Seq {
                type_name: label.to_string(),
                open,
                close,
                items: items
                    .iter()
                    .map(|i| from_literal(i, "", false, None))
                    .collect(),
                count,
            }
        }
        Repr::Call { name, args, cut } if !cut && args.iter().all(|(k, _)| k.is_none()) => {
            Value::Variant {
                name: name.to_string(),
                items: args
                    .iter()
                    .map(|(_, v)| from_literal(v, "", false, None))
                    .collect(),
            }
        }
        Repr::Call { name, args, cut } => Value::Object {
            type_name: name.to_string(),
            fields: args
                .iter()
                .map(|(k, v)| {
                    (
                        k.unwrap_or_default().to_string(),
                        from_literal(v, "", false, None),
                    )
                })
                .collect(),
            more: cut,
        },
        Repr::Atom(a) => {
            if let Some(what) = described_object(a) {
                Value::described(what)
            } else if a.contains(" object at 0x") {
                let ty = a
                    .trim_start_matches('<')
                    .split(' ')
                    .next()
                    .unwrap_or(type_name);
                Value::unread_object(ty)
            } else if cut {
                Value::Text {
                    text: a.to_string(),
                    prefix: String::new(),
                    cut: true,
                    length,
                }
                .described_if_unquoted()
            } else {
                Value::atom(a)
            }
        }
    }
}

impl Value {
    /// A cut text that was no string literal is said as it is, cut.
    fn described_if_unquoted(self) -> Value {
        match self {
            Value::Text { text, .. } => Value::Described {
                text: format!("{text}..."),
            },
            other => other,
        }
    }
}

/// `<generator object f.<locals>.<genexpr> at 0x..>` →
/// `<generator f.<locals>.<genexpr>>`.
fn described_object(a: &str) -> Option<String> {
    let inner = a.strip_prefix('<')?.strip_suffix('>')?;
    let (kind, rest) = inner.split_once(" object ")?;
    let (name, addr) = rest.rsplit_once(" at 0x")?;
    (!name.is_empty() && !kind.contains(' ') && addr.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| format!("<{} {name}>", super::short_type(kind)))
}

/// A dict's `key: value` item.
fn split_pair(t: &str) -> Option<(&str, &str)> {
    let t = t.trim();
    if !(t.starts_with('\'')
        || t.starts_with('"')
        || t.chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '-'))
    {
        return None;
    }
    let mut quote: Option<char> = None;
    for (i, c) in t.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, ':') if t[i + 1..].starts_with(' ') => return Some((&t[..i], &t[i + 2..])),
            (None, '[' | '(' | '{') => return None,
            _ => {}
        }
    }
    None
}
