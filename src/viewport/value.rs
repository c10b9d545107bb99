//! Value rendering, shared by the viewport and (later) the TUI.

use crate::session::fetch::is_hidden_group;
use crate::session::types::Var;

use super::ViewportConfig;

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
const STRINGS: &[&str] = &["str", "bytes", "bytearray"];

/// Renders a variable's value at `depth` (0 for a local itself).
pub fn render(v: &Var, cfg: &ViewportConfig, depth: usize) -> String {
    let t = v.type_name.as_str();
    if STRINGS.contains(&t) {
        let limit = if depth > 0 {
            cfg.string_truncate_length.min(NESTED_LIMIT)
        } else {
            cfg.string_truncate_length
        };
        return render_string(&v.value, v.truncated, limit);
    }
    // Nested values get a shorter leash so one local cannot crowd out the rest.
    let limit = if depth > 0 {
        cfg.string_truncate_length.min(NESTED_LIMIT)
    } else {
        cfg.string_truncate_length
    };
    if SCALARS.contains(&t) || v.reference <= 0 {
        return truncate(&v.value, limit);
    }
    let is_seq = SEQUENCES.contains(&t);
    let is_map = MAPPINGS.contains(&t);
    let members = v.children.as_deref().map(visible_members);
    let len = v.children.as_deref().and_then(collection_len);
    if depth >= cfg.locals_max_depth.max(1) || members.is_none() {
        // No more room to nest: type and size only.
        return match (is_seq || is_map, len) {
            (true, Some(n)) => format!("<{t}: {n} items>"),
            (true, None) => truncate(&v.value, limit),
            _ => object_short(v, limit),
        };
    }
    let members = members.unwrap_or_default();
    if is_seq || is_map {
        let n = len.unwrap_or(members.len());
        let shown: Vec<String> = members
            .iter()
            .take(cfg.collection_preview_items)
            .map(|c| {
                let val = render(c, cfg, depth + 1);
                if is_map {
                    format!("{}: {val}", key_text(&c.name))
                } else {
                    val
                }
            })
            .collect();
        let (open, close) = match t {
            _ if is_map => ("{", "}"),
            "tuple" => ("(", ")"),
            "set" | "frozenset" => ("{", "}"),
            _ => ("[", "]"),
        };
        let body = if n > shown.len() {
            let sep = if shown.is_empty() { "" } else { ", " };
            format!("{}{sep}... ({n} items)", shown.join(", "))
        } else {
            shown.join(", ")
        };
        return format!("{open}{body}{close}");
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
    if depth == 0 {
        format!("<{}: {}{more}>", short_type(t), fields.join(", "))
    } else {
        format!("{{{}{more}}}", fields.join(", ").replace('=', ": "))
    }
}

fn object_short(v: &Var, limit: usize) -> String {
    let t = short_type(&v.type_name);
    // A custom repr says more than the type name; the default one says less.
    if !v.value.contains(" object at 0x") && !v.value.is_empty() && !v.value.starts_with('<') {
        return truncate(&v.value, limit);
    }
    format!("<{t}>")
}

fn short_type(t: &str) -> &str {
    t.rsplit('.').next().unwrap_or(t)
}

fn key_text(name: &str) -> String {
    if let Some(inner) = name.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')) {
        format!("\"{inner}\"")
    } else {
        name.to_string()
    }
}

fn visible_members(children: &[Var]) -> Vec<Var> {
    children
        .iter()
        .filter(|c| !is_hidden_group(&c.name) && c.name != "len()" && !c.name.starts_with("__"))
        .cloned()
        .collect()
}

fn collection_len(children: &[Var]) -> Option<usize> {
    children
        .iter()
        .find(|c| c.name == "len()")
        .and_then(|c| c.value.parse().ok())
}

/// Python reprs quote with '; the viewport quotes with ".
fn render_string(repr: &str, was_cut: bool, limit: usize) -> String {
    let inner = repr
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .or_else(|| repr.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        .or_else(|| was_cut.then(|| repr.trim_start_matches(['\'', '"'])));
    match inner {
        Some(s) => {
            let cut = limit.saturating_sub(2);
            if s.chars().count() > cut || was_cut {
                let head: String = s.chars().take(cut.saturating_sub(3)).collect();
                format!("\"{head}...\"")
            } else {
                format!("\"{s}\"")
            }
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
        }
    }

    #[test]
    fn scalars_and_strings() {
        let cfg = ViewportConfig::default();
        assert_eq!(render(&var("x", "float", "149.97"), &cfg, 0), "149.97");
        assert_eq!(
            render(&var("s", "str", "'hello, world'"), &cfg, 0),
            "\"hello, world\""
        );
        let long = format!("'{}'", "a".repeat(500));
        let r = render(&var("s", "str", &long), &cfg, 0);
        assert!(r.len() <= 120 && r.ends_with("...\""), "{r}");
    }

    #[test]
    fn collections_preview_with_count() {
        let cfg = ViewportConfig::default();
        let mut l = var("l", "list", "[...]");
        l.reference = 5;
        let mut kids: Vec<Var> = (0..47)
            .map(|i| var(&i.to_string(), "int", &(i + 1).to_string()))
            .collect();
        kids.push(var("len()", "int", "47"));
        l.children = Some(kids);
        assert_eq!(render(&l, &cfg, 0), "[1, 2, 3, 4, 5, ... (47 items)]");
    }

    #[test]
    fn objects_show_type_and_fields() {
        let cfg = ViewportConfig::default();
        let mut u = var("user", "__main__.User", "<__main__.User object at 0x1>");
        u.reference = 3;
        u.children = Some(vec![
            var("special variables", "", ""),
            var("id", "int", "482"),
            var("tier", "str", "'gold'"),
        ]);
        assert_eq!(render(&u, &cfg, 0), "<User: id=482, tier=\"gold\">");
    }
}
