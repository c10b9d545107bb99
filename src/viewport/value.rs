//! Value rendering, shared by the viewport and (later) the TUI. A value
//! renders from its children when the engine read them (objects with a
//! default repr, cut collections), and from its repr otherwise.

use crate::session::types::Var;

use super::ViewportConfig;
use super::repr::{self, Repr, Typed};

const SEQUENCES: &[&str] = &["list", "tuple", "set", "frozenset", "deque"];
const MAPPINGS: &[&str] = &[
    "dict",
    "OrderedDict",
    "defaultdict",
    "Counter",
    "mappingproxy",
];
const SCALARS: &[&str] = &["int", "float", "bool", "NoneType", "complex", "Decimal"];
/// Characters a value nested inside another may take.
const NESTED_LIMIT: usize = 40;
const STRINGS: &[&str] = &["str", "bytes", "bytearray", "string"];

/// `1 item`, `3 items`, or a lower bound in words when the adapter cut
/// the value short (`more than 59 items`).
fn count_items(n: usize, cut: bool) -> String {
    match (n, cut) {
        (_, true) => format!("more than {n} items"),
        (1, false) => "1 item".into(),
        _ => format!("{n} items"),
    }
}

fn limit_at(cfg: &ViewportConfig, depth: usize) -> usize {
    // Nested values get a shorter leash so one local cannot crowd out the rest.
    if depth > 0 {
        cfg.string_truncate_length.min(NESTED_LIMIT)
    } else {
        cfg.string_truncate_length
    }
}

/// Renders a variable's value at `depth` (0 for a local itself).
pub fn render(v: &Var, cfg: &ViewportConfig, depth: usize) -> String {
    let t = v.type_name.as_str();
    let limit = limit_at(cfg, depth);
    if STRINGS.contains(&t) {
        return render_string(&v.value, v.truncated, v.length, limit);
    }
    if SCALARS.contains(&t) {
        return cut_atom(&v.value, limit);
    }
    // A C string behind a pointer: `0x00005555 "origin"` reads as "origin".
    if let Some(s) = pointed_string(&v.value) {
        return render_string(&c_string(s), v.truncated, None, limit);
    }
    if is_null_pointer(v) {
        return "NULL".into();
    }
    // A getter not run yet: reading it runs the program's code.
    if v.value == crate::session::reads::LAZY_VALUE && v.children.is_none() && v.reference > 0 {
        return v.value.clone();
    }
    if v.value.starts_with('"') && v.value.contains("\\0") {
        return render_string(&c_string(&v.value), v.truncated, None, limit);
    }
    // A collection summarised by its size alone (`size=3`).
    if v.children.is_none()
        && let Some(n) = v.value.strip_prefix("size=").and_then(|n| n.parse().ok())
    {
        return format!("<{}: {}>", short_type(t), count_items(n, false));
    }
    // A summary that is only the type's name says nothing more than `<T>`.
    if v.children.is_none() && !v.value.is_empty() && v.value == v.type_name {
        return format!("<{}>", short_type(t));
    }
    match v.children.as_deref() {
        Some(children) => from_children(v, children, cfg, depth),
        None => match repr::parse_typed(&v.value) {
            Some(typed) => render_typed(&typed, t, cfg, depth),
            None => render_repr(&v.value, short_type(t), cfg, depth),
        },
    }
}

/// Renders a value whose text names its type (see `repr::Typed`);
/// `hint` is the type its container or variable gives it.
fn render_typed(typed: &Typed, hint: &str, cfg: &ViewportConfig, depth: usize) -> String {
    let nested = depth >= cfg.locals_max_depth.max(1);
    let name_of = |t: &str| {
        let t = if t.is_empty() { hint } else { t };
        repr::short_type_name(t.trim_start_matches('*'))
    };
    match typed {
        Typed::Nil => "nil".into(),
        Typed::Unloaded { type_name } => format!("<{}>", name_of(type_name)),
        Typed::Struct {
            type_name,
            fields,
            more,
        } => {
            let name = name_of(type_name);
            if nested {
                return format!("<{name}>");
            }
            let shown: Vec<String> = fields
                .iter()
                .take(cfg.collection_preview_items)
                .map(|(k, v)| format!("{k}={}", render_typed_item(v, "", cfg, depth + 1)))
                .collect();
            let more = if *more > 0 || fields.len() > shown.len() {
                ", ..."
            } else {
                ""
            };
            object(&name, &shown, more, depth)
        }
        Typed::List {
            type_name,
            len,
            items,
            more,
        } => {
            let t = if type_name.is_empty() {
                hint
            } else {
                type_name
            };
            let n = len.unwrap_or(items.len() + more);
            if nested {
                return format!("<{}: {}>", name_of(t), count_items(n, false));
            }
            let is_map = t.starts_with("map[");
            let element = element_type(t);
            let shown: Vec<String> = items
                .iter()
                .take(cfg.collection_preview_items)
                .map(|i| match i.split_once(": ").filter(|_| is_map) {
                    Some((k, v)) => format!(
                        "{}: {}",
                        render_typed_item(k, "", cfg, depth + 1),
                        render_typed_item(v, element, cfg, depth + 1)
                    ),
                    None => render_typed_item(i, element, cfg, depth + 1),
                })
                .collect();
            let (open, close) = if is_map { ("{", "}") } else { ("[", "]") };
            truncate(
                &format!("{open}{}{close}", with_count(shown, n)),
                cfg.string_truncate_length,
            )
        }
    }
}

/// One part of a typed value: typed values recursively, strings requoted.
fn render_typed_item(item: &str, hint: &str, cfg: &ViewportConfig, depth: usize) -> String {
    let item = item.trim();
    if let Some(typed) = repr::parse_typed(item) {
        return render_typed(&typed, hint, cfg, depth);
    }
    if item.starts_with('"') {
        return render_string(item, false, None, limit_at(cfg, depth));
    }
    truncate(item, limit_at(cfg, depth))
}

/// `main.Item` for `[]main.Item`, `[3]main.Item` or `map[string]main.Item`.
fn element_type(t: &str) -> &str {
    let t = t.trim_start_matches('*');
    if let Some(rest) = t.strip_prefix("map[") {
        let mut depth = 1;
        for (i, c) in rest.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        return &rest[i + 1..];
                    }
                }
                _ => {}
            }
        }
        return "";
    }
    if t.starts_with('[') {
        return t.find(']').map(|i| &t[i + 1..]).unwrap_or("");
    }
    ""
}

fn from_children(v: &Var, children: &[Var], cfg: &ViewportConfig, depth: usize) -> String {
    // A pointer's one unnamed child is what it points to.
    if let [target] = children
        && target.name.is_empty()
    {
        return render(target, cfg, depth);
    }
    let t = v.type_name.as_str();
    let members = visible_members(children);
    // A pointer whose one child is what it points at reads as that.
    if let [only] = members.as_slice()
        && only.name.starts_with('*')
    {
        return render(only, cfg, depth);
    }
    // Children named `[0]`, `[1]`.. are elements; pairs under a `..Map`
    // type are its entries.
    let indexed = !members.is_empty() && members.iter().all(|c| is_index(&c.name));
    let is_pairs_map = indexed
        && short_type(t).ends_with("Map")
        && members
            .iter()
            .all(|c| matches!(repr::parse(&c.value), Repr::Seq { open: '(', ref items, .. } if items.len() == 2));
    let is_map = MAPPINGS.contains(&t) || is_pairs_map || t.starts_with("map[");
    let is_coll = is_map || SEQUENCES.contains(&t) || indexed || t.starts_with('[');
    // A counted container's preview holds only its first items.
    let len = v
        .indexed
        .or_else(|| collection_len(children))
        .unwrap_or(members.len());
    if depth >= cfg.locals_max_depth.max(1) {
        return if is_coll {
            format!("<{}: {}>", short_type(t), count_items(len, false))
        } else {
            format!("<{}>", short_type(t))
        };
    }
    if is_coll {
        let shown: Vec<String> = members
            .iter()
            .take(cfg.collection_preview_items)
            .map(|c| {
                if is_pairs_map && let Repr::Seq { items, .. } = repr::parse(&c.value) {
                    return format!(
                        "{}: {}",
                        render_item(items[0], cfg, depth + 1),
                        render_item(items[1], cfg, depth + 1)
                    );
                }
                let val = render(c, cfg, depth + 1);
                if is_map {
                    format!("{}: {val}", repr::requote(&c.name))
                } else {
                    val
                }
            })
            .collect();
        let (open, close) = brackets(t, is_map);
        return format!("{open}{}{close}", with_count(shown, len));
    }
    let fields: Vec<String> = members
        .iter()
        .take(cfg.collection_preview_items)
        .map(|c| format!("{}={}", c.name, render(c, cfg, depth + 1)))
        .collect();
    let more = if members.len() > fields.len() {
        ", ..."
    } else {
        ""
    };
    object(short_type(t), &fields, more, depth)
}

/// Renders from a repr alone.
fn render_repr(value: &str, type_name: &str, cfg: &ViewportConfig, depth: usize) -> String {
    let limit = limit_at(cfg, depth);
    let nested = depth >= cfg.locals_max_depth.max(1);
    match repr::parse(value) {
        Repr::Seq { open, items, cut } => {
            let n = items.len();
            let label = match open {
                '[' => "list",
                '(' => "tuple",
                _ if items
                    .first()
                    .is_some_and(|i| repr::parse(i) == Repr::Atom(i) && i.contains(": ")) =>
                {
                    "dict"
                }
                _ => "set",
            };
            let label = if type_name.is_empty() || type_name == "?" {
                label
            } else {
                type_name
            };
            if nested {
                if let Some(whole) = whole_repr(value, cut, limit, cfg, depth) {
                    return whole;
                }
                // `{...}`: the adapter did not read this level at all.
                if cut && n == 0 {
                    return unread(open, type_name);
                }
                return format!("<{label}: {}>", count_items(n, cut));
            }
            let shown: Vec<String> = items
                .iter()
                .take(cfg.collection_preview_items)
                .map(|i| render_item(i, cfg, depth + 1))
                .collect();
            let close = match open {
                '[' => ']',
                '(' => ')',
                _ => '}',
            };
            fit_items(
                open,
                close,
                shown,
                n,
                cut,
                limit.max(cfg.string_truncate_length),
            )
        }
        // `Some("yes")`, `Ok(3)`: a call with no field names reads best as it is.
        Repr::Call { name, args, cut } if !cut && args.iter().all(|(k, _)| k.is_none()) => {
            let shown: Vec<String> = args
                .iter()
                .map(|(_, v)| render_item(v, cfg, depth + 1))
                .collect();
            truncate(&format!("{name}({})", shown.join(", ")), limit)
        }
        Repr::Call { name, args, cut } => {
            if nested {
                return format!("<{name}>");
            }
            let fields: Vec<String> = args
                .iter()
                .take(cfg.collection_preview_items)
                .map(|(k, v)| match k {
                    Some(k) => format!("{k}={}", render_item(v, cfg, depth + 1)),
                    None => render_item(v, cfg, depth + 1),
                })
                .collect();
            let more = if cut || args.len() > fields.len() {
                ", ..."
            } else {
                ""
            };
            object(name, &fields, more, depth)
        }
        Repr::Atom(a) => {
            if let Some(what) = described_object(a) {
                what
            } else if a.contains(" object at 0x") {
                let ty = a
                    .trim_start_matches('<')
                    .split(' ')
                    .next()
                    .unwrap_or(type_name);
                format!("<{}>", short_type(ty))
            } else {
                cut_atom(a, limit)
            }
        }
    }
}

/// A nested value whose own repr, complete, fits its limit, rendered whole
/// (`deque([3, 4, 4])`) rather than summarised behind its wrapper.
fn whole_repr(
    value: &str,
    cut: bool,
    limit: usize,
    cfg: &ViewportConfig,
    depth: usize,
) -> Option<String> {
    if cut || value.contains("...") || value.chars().count() > limit {
        return None;
    }
    let open = ViewportConfig {
        locals_max_depth: usize::MAX,
        ..cfg.clone()
    };
    Some(render_repr(value, "", &open, depth))
}

/// A level the adapter left unread, said as such rather than guessed.
fn unread(open: char, type_name: &str) -> String {
    let kind = match (open, type_name) {
        (_, t) if !t.is_empty() && t != "?" => t,
        ('[', _) => "list",
        ('(', _) => "tuple",
        _ => "dict or set",
    };
    format!("<{kind}: not read>")
}

/// `<generator object f.<locals>.<genexpr> at 0x..>` → `<generator f.<locals>.<genexpr>>`.
fn described_object(a: &str) -> Option<String> {
    let inner = a.strip_prefix('<')?.strip_suffix('>')?;
    let (kind, rest) = inner.split_once(" object ")?;
    let (name, addr) = rest.rsplit_once(" at 0x")?;
    (!name.is_empty() && !kind.contains(' ') && addr.chars().all(|c| c.is_ascii_hexdigit()))
        .then(|| format!("<{} {name}>", short_type(kind)))
}

/// Numbers are never cut: a shortened number is a different number.
fn cut_atom(a: &str, limit: usize) -> String {
    let numeric = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_digit() || "+-.eEjx_abcdefABCDEF()".contains(c))
        && a.chars().any(|c| c.is_ascii_digit());
    let n = a.chars().count();
    if numeric || n <= limit {
        a.to_string()
    } else {
        format!("{} ({n} chars)", truncate(a, limit))
    }
}

/// `[a, b, ... (n items)]` with as many items as fit `limit`; the count is
/// never what gets cut.
fn fit_items(
    open: char,
    close: char,
    shown: Vec<String>,
    n: usize,
    cut: bool,
    limit: usize,
) -> String {
    let whole = if cut {
        None
    } else {
        let all = format!("{open}{}{close}", with_count(shown.clone(), n));
        (all.chars().count() <= limit).then_some(all)
    };
    if let Some(all) = whole {
        return all;
    }
    let tail = format!("... ({})", count_items(n, cut));
    let mut kept: Vec<String> = vec![];
    let mut used = tail.chars().count() + 2;
    for item in shown {
        let w = item.chars().count() + 2;
        if used + w > limit && !kept.is_empty() {
            break;
        }
        used += w;
        kept.push(item);
    }
    kept.push(tail);
    format!("{open}{}{close}", kept.join(", "))
}

/// One item inside a repr: strings requoted, containers summarised.
fn render_item(item: &str, cfg: &ViewportConfig, depth: usize) -> String {
    let t = item.trim();
    // `key: value` pairs of a dict.
    if let Some((k, v)) = split_pair(t) {
        return format!(
            "{}: {}",
            render_item(k, cfg, depth),
            render_item(v, cfg, depth)
        );
    }
    if t.starts_with('\'') || t.starts_with('"') {
        return render_string(t, false, None, limit_at(cfg, depth));
    }
    render_repr(t, "", cfg, depth)
}

fn split_pair(t: &str) -> Option<(&str, &str)> {
    if !(t.starts_with('\'')
        || t.starts_with('"')
        || t.chars().next().is_some_and(|c| c.is_ascii_digit()))
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

fn object(name: &str, fields: &[String], more: &str, depth: usize) -> String {
    if fields.is_empty() && more.is_empty() {
        return format!("<{name}>");
    }
    if depth == 0 {
        format!("<{name}: {}{more}>", fields.join(", "))
    } else {
        format!(
            "{{{}{more}}}",
            fields.join(", ").replacen('=', ": ", fields.len())
        )
    }
}

fn with_count(shown: Vec<String>, n: usize) -> String {
    if n > shown.len() {
        let sep = if shown.is_empty() { "" } else { ", " };
        format!("{}{sep}... ({n} items)", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

fn brackets(t: &str, is_map: bool) -> (&'static str, &'static str) {
    match t {
        _ if is_map => ("{", "}"),
        "tuple" => ("(", ")"),
        "set" | "frozenset" => ("{", "}"),
        _ => ("[", "]"),
    }
}

/// `__main__.User` → `User`, `shop::Item` → `Item`, `alloc::vec::Vec<u32>`
/// → `Vec`, `const struct point *` → `point`.
fn short_type(t: &str) -> &str {
    let t = t.split('<').next().unwrap_or(t);
    let t = t.trim_end_matches(['*', '&', ' ']);
    let t = t.strip_prefix("const ").unwrap_or(t);
    let t = t.strip_prefix("struct ").unwrap_or(t);
    let t = t.rsplit("::").next().unwrap_or(t);
    t.rsplit('.').next().unwrap_or(t)
}

/// A C string ends at its first NUL, whatever the array holds after it.
fn c_string(quoted: &str) -> String {
    match quoted.find("\\0") {
        Some(i) => format!("{}\"", &quoted[..i]),
        None => quoted.to_string(),
    }
}

fn is_null_pointer(v: &Var) -> bool {
    v.type_name.trim_end().ends_with('*')
        && v.value
            .strip_prefix("0x")
            .is_some_and(|a| !a.is_empty() && a.chars().all(|c| c == '0'))
}

fn is_index(name: &str) -> bool {
    name.strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .is_some_and(|n| n.parse::<u64>().is_ok())
}

/// The quoted string after a pointer's address, as C strings show.
fn pointed_string(value: &str) -> Option<&str> {
    let rest = value.strip_prefix("0x")?;
    let (addr, s) = rest.split_once(' ')?;
    (addr.chars().all(|c| c.is_ascii_hexdigit()) && s.starts_with('"') && s.ends_with('"'))
        .then_some(s)
}

fn visible_members(children: &[Var]) -> Vec<Var> {
    children
        .iter()
        .filter(|c| !c.hidden && c.name != "len()")
        .cloned()
        .collect()
}

fn collection_len(children: &[Var]) -> Option<usize> {
    children
        .iter()
        .find(|c| c.name == "len()")
        .and_then(|c| c.value.parse().ok())
}

/// Python reprs quote with '; the viewport quotes with ". A cut string
/// says so and how long it is (a lower bound when the adapter cut it).
fn render_string(repr: &str, was_cut: bool, length: Option<usize>, limit: usize) -> String {
    let (prefix, body) = match repr.strip_prefix('b') {
        Some(rest) if rest.starts_with(['\'', '"']) => ("b", rest),
        _ => ("", repr),
    };
    let inner = body
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| body.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        .or_else(|| was_cut.then(|| body.trim_start_matches(['\'', '"'])));
    match inner {
        Some(s) => {
            let n = s.chars().count();
            if n + 2 + prefix.len() <= limit && !was_cut {
                return format!("{prefix}\"{s}\"");
            }
            let size = match (length, was_cut) {
                (Some(len), _) => format!(" ({len} chars)"),
                // No length could be read: the language has no length
                // expression (a native string's length needs a call into
                // the program), the value has no expression, or the stop
                // had more cut strings than it reads lengths for.
                (None, true) => format!(" (more than {n} chars)"),
                (None, false) => format!(" ({n} chars)"),
            };
            // The whole, with its length, stays within the limit.
            let room = limit.saturating_sub(prefix.len() + 5 + size.len()).max(1);
            let head: String = s.chars().take(room).collect();
            format!("{prefix}\"{head}...\"{size}")
        }
        None => truncate(repr, limit),
    }
}

pub fn truncate(s: &str, limit: usize) -> String {
    let s = s.replace('\n', "\\n");
    if s.chars().count() <= limit {
        return s;
    }
    let head: String = s.chars().take(limit.saturating_sub(3)).collect();
    format!("{head}...")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, t: &str, value: &str) -> Var {
        Var {
            name: name.into(),
            value: value.into(),
            type_name: t.into(),
            reference: 0,
            evaluate_name: None,
            children: None,
            truncated: false,
            length: None,
            indexed: None,
            hidden: false,
        }
    }

    #[test]
    fn scalars_and_strings() {
        let cfg = ViewportConfig::default();
        assert_eq!(render(&var("x", "float", "149.97"), &cfg, 0), "149.97");
        assert_eq!(render(&var("b", "bool", "True"), &cfg, 0), "True");
        assert_eq!(render(&var("n", "NoneType", "None"), &cfg, 0), "None");
        assert_eq!(
            render(&var("s", "str", "'hello, world'"), &cfg, 0),
            "\"hello, world\""
        );
        let long = format!("'{}'", "a".repeat(500));
        let r = render(&var("s", "str", &long), &cfg, 0);
        assert!(r.chars().count() <= 120, "{r}");
        assert!(r.ends_with("...\" (500 chars)"), "{r}");
        let big = "1".repeat(60);
        let mut small = cfg.clone();
        small.string_truncate_length = 40;
        assert_eq!(render(&var("n", "int", &big), &small, 0), big);
        assert_eq!(
            render(&var("b", "bytes", "b'\\x00a'"), &cfg, 0),
            "b\"\\x00a\""
        );
        assert_eq!(
            render(
                &var(
                    "g",
                    "generator",
                    "<generator object f.<locals>.<genexpr> at 0x7f>"
                ),
                &cfg,
                0
            ),
            "<generator f.<locals>.<genexpr>>"
        );
    }

    #[test]
    fn collections_from_children_show_count() {
        let cfg = ViewportConfig::default();
        let mut l = var("l", "list", "[1, 2, ...]");
        l.reference = 5;
        let mut kids: Vec<Var> = (0..47)
            .map(|i| var(&i.to_string(), "int", &(i + 1).to_string()))
            .collect();
        kids.push(var("len()", "int", "47"));
        l.children = Some(kids);
        assert_eq!(render(&l, &cfg, 0), "[1, 2, 3, 4, 5, ... (47 items)]");
    }

    #[test]
    fn collections_from_reprs() {
        let cfg = ViewportConfig::default();
        let mut l = var("l", "list", "[1, 2, 3]");
        l.reference = 5;
        assert_eq!(render(&l, &cfg, 0), "[1, 2, 3]");
        l.value = "[1, 2, 3, 4, 5, 6, 7]".into();
        assert_eq!(render(&l, &cfg, 0), "[1, 2, 3, 4, 5, ... (7 items)]");
        let mut d = var("d", "dict", "{'gold': 0.1, 'silver': 0.05}");
        d.reference = 6;
        assert_eq!(render(&d, &cfg, 0), "{\"gold\": 0.1, \"silver\": 0.05}");
    }

    #[test]
    fn typed_values_render_like_objects_and_lists() {
        let cfg = ViewportConfig::default();
        let r = |t: &str, v: &str| render(&var("x", t, v), &cfg, 0);
        assert_eq!(
            r("*main.User", "*main.User {ID: 482, Tier: \"gold\"}"),
            "<User: ID=482, Tier=\"gold\">"
        );
        assert_eq!(r("string", "\"widget\""), "\"widget\"");
        assert_eq!(
            r(
                "[]main.Item",
                "[]main.Item len: 3, cap: 4, [{Name: \"a\", Price: 1},{Name: \"b\", Price: 2},{Name: \"c\", Price: 3}]"
            ),
            "[<Item>, <Item>, <Item>]"
        );
        assert_eq!(
            r(
                "*main.Cart",
                "*main.Cart {Items: []main.Item len: 3, cap: 4, [(*main.Item)(0xc0000ac000),(*main.Item)(0xc0000ac020)]}"
            ),
            "<Cart: Items=<[]Item: 3 items>>"
        );
        assert_eq!(
            r(
                "[]int",
                "[]int len: 100, cap: 100, [0,1,2,3,4,5,6,7,8,9,...+90 more]"
            ),
            "[0, 1, 2, 3, 4, ... (100 items)]"
        );
        assert_eq!(
            r(
                "map[string]int",
                "map[string]int [\"gold\": 10, \"silver\": 5, ]"
            ),
            "{\"gold\": 10, \"silver\": 5}"
        );
        assert_eq!(r("*main.Item", "*main.Item nil"), "nil");
        assert_eq!(
            r("main.Point", "main.Point {X: 3, Y: 4}"),
            "<Point: X=3, Y=4>"
        );
        let mut deeper = cfg.clone();
        deeper.locals_max_depth = 2;
        assert_eq!(
            render(
                &var(
                    "items",
                    "[]main.Item",
                    "[]main.Item len: 1, cap: 1, [{Name: \"a\", Price: 1}]"
                ),
                &deeper,
                0
            ),
            "[{Name: \"a\", Price: 1}]"
        );
    }

    #[test]
    fn objects_show_type_and_fields() {
        let cfg = ViewportConfig::default();
        let mut u = var("user", "__main__.User", "<__main__.User object at 0x1>");
        u.reference = 3;
        let dunder = Var {
            hidden: true,
            ..var("__dict__", "dict", "{}")
        };
        u.children = Some(vec![
            dunder,
            var("id", "int", "482"),
            var("tier", "str", "'gold'"),
        ]);
        assert_eq!(render(&u, &cfg, 0), "<User: id=482, tier=\"gold\">");
        let mut c = var(
            "cart",
            "Cart",
            "Cart(items=[Item(name='a', price=1.0, quantity=1), Item(name='b', price=2.0, quantity=2)])",
        );
        c.reference = 4;
        assert_eq!(render(&c, &cfg, 0), "<Cart: items=<list: 2 items>>");
        let mut i = var("item", "Item", "Item(name='cable', price=9.99, quantity=3)");
        i.reference = 5;
        assert_eq!(
            render(&i, &cfg, 0),
            "<Item: name=\"cable\", price=9.99, quantity=3>"
        );
        let mut deeper = cfg.clone();
        deeper.locals_max_depth = 2;
        assert_eq!(render(&c, &deeper, 0), "<Cart: items=[<Item>, <Item>]>");
        deeper.locals_max_depth = 3;
        assert_eq!(
            render(&c, &deeper, 0),
            "<Cart: items=[{name: \"a\", price: 1.0, quantity: 1}, {name: \"b\", price: 2.0, quantity: 2}]>"
        );
    }
}
