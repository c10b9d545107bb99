//! Value rendering for every view: the viewport's text and JSON, the TUI's
//! panes and inline values. It renders the neutral value tree a variable's
//! language built (`Var::tree`), and knows no language's grammar: it
//! decides only how much of the tree the width allows.

use crate::adapters::value::{Count, Value, short_type};
use crate::session::types::Var;

use super::ViewportConfig;

/// Characters a value nested inside another may take.
const NESTED_LIMIT: usize = 40;

/// `1 item`, `3 items`, or a lower bound in words when the adapter cut
/// the value short (`more than 59 items`).
fn count_items(count: Count) -> String {
    match count {
        Count::AtLeast(n) => format!("more than {n} items"),
        Count::Exact(1) => "1 item".into(),
        Count::Exact(n) => format!("{n} items"),
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
    render_value(&v.tree(), cfg, depth)
}

/// Whether two variables hold the same value (not merely the same
/// preview: a change past what a preview shows is a change).
pub fn same_value(a: &Var, b: &Var) -> bool {
    a.tree() == b.tree()
}

/// Renders a value tree at `depth`: the levels `locals_max_depth` opens
/// are shown, and a collection's elements one level more wherever they fit
/// the width.
pub fn render_value(value: &Value, cfg: &ViewportConfig, depth: usize) -> String {
    let levels = (cfg.locals_max_depth.max(1) + 1).saturating_sub(depth);
    let budget = limit_at(cfg, depth);
    if depth == 0 {
        Render { cfg }.show(value, budget, levels, true)
    } else {
        Render { cfg }.best(value, budget, levels)
    }
}

struct Render<'a> {
    cfg: &'a ViewportConfig,
}

impl Render<'_> {
    /// The most detailed rendering, up to `levels`, that fits `budget`.
    fn best(&self, v: &Value, budget: usize, levels: usize) -> String {
        for l in (1..=levels).rev() {
            let s = self.show(v, budget, l, false);
            if s.chars().count() <= budget {
                return s;
            }
        }
        self.show(v, budget, 0, false)
    }

    /// `v` with `levels` of its containers opened; `top` for a local itself.
    fn show(&self, v: &Value, budget: usize, levels: usize, top: bool) -> String {
        let inner = budget.min(NESTED_LIMIT);
        match v {
            Value::Atom { text } => cut_atom(text, budget),
            Value::Text {
                text,
                prefix,
                cut,
                length,
            } => render_string(text, prefix, *cut, *length, budget),
            Value::Nil { word } => word.clone(),
            Value::Described { text } => truncate(text, budget),
            Value::Unreadable { what, why } if what.is_empty() => format!("<{why}>"),
            Value::Unreadable { what, why } => format!("<{what}: {why}>"),
            Value::Pointer { target } if top => self.show(target, budget, levels, true),
            Value::Pointer { target } => match &**target {
                // A pointer to an object not read reads as one, not `*<Item>`.
                Value::Object {
                    type_name,
                    fields,
                    more: true,
                } if fields.is_empty() && !type_name.is_empty() => {
                    format!("*{} {{...}}", short_type(type_name))
                }
                _ => format!(
                    "*{}",
                    self.show(target, budget.saturating_sub(1), levels, false)
                ),
            },
            Value::Variant { name, items } if items.is_empty() => name.clone(),
            // A variant with named fields: `Cat::Food {days: 6}`.
            // Cutting the text would cut a closing bracket, and the next
            // item would read as part of this one: what does not fit is
            // left out whole, as `...`.
            Value::Variant { name, items } if is_fields(items) => {
                let room = budget.saturating_sub(name.chars().count() + 1);
                let fields = self.show(&items[0], room, levels.max(1), false);
                let whole = format!("{name} {fields}");
                if whole.chars().count() <= budget {
                    whole
                } else {
                    format!("{name} {{...}}")
                }
            }
            Value::Variant { name, items } => {
                let room = budget.saturating_sub(name.chars().count() + 2 * items.len());
                let shown: Vec<String> = items
                    .iter()
                    .map(|i| self.best(i, room / items.len().max(1), levels.max(1)))
                    .collect();
                let whole = format!("{name}({})", shown.join(", "));
                if whole.chars().count() <= budget {
                    whole
                } else {
                    format!("{name}(...)")
                }
            }
            Value::Seq {
                type_name,
                open,
                close,
                items,
                count,
            } => {
                if *count == Count::Exact(0) {
                    return format!("{open}{close}");
                }
                if levels == 0 || items.is_empty() {
                    let label =
                        format!("<{}: {}>", seq_label(type_name, *open), count_items(*count));
                    // `(1, 2)` says more than `<tuple: 2 items>` in less room.
                    if *count == Count::Exact(items.len()) && items.iter().all(is_scalar) {
                        let shown: Vec<String> = items
                            .iter()
                            .map(|i| self.show(i, inner, 0, false))
                            .collect();
                        let whole = format!("{open}{}{close}", shown.join(", "));
                        if whole.chars().count() <= label.chars().count() {
                            return whole;
                        }
                    }
                    return label;
                }
                let shown: Vec<String> = items
                    .iter()
                    .take(self.cfg.collection_preview_items)
                    .map(|i| self.best(i, inner, levels - 1))
                    .collect();
                fit_items(*open, *close, shown, *count, budget)
            }
            Value::Map {
                type_name,
                entries,
                count,
            } => {
                if *count == Count::Exact(0) {
                    return "{}".into();
                }
                if levels == 0 || entries.is_empty() {
                    let label = match short_type(type_name) {
                        t if t.is_empty() => "dict".to_string(),
                        t => t,
                    };
                    return format!("<{label}: {}>", count_items(*count));
                }
                let shown: Vec<String> = entries
                    .iter()
                    .take(self.cfg.collection_preview_items)
                    .map(|(k, v)| {
                        format!(
                            "{}: {}",
                            self.best(k, inner, 1),
                            self.best(v, inner, levels - 1)
                        )
                    })
                    .collect();
                fit_items('{', '}', shown, *count, budget)
            }
            Value::Object {
                type_name,
                fields,
                more,
            } => {
                let name = short_type(type_name);
                if levels == 0 || fields.is_empty() {
                    return format!("<{name}>");
                }
                let sep = if top { "=" } else { ": " };
                let shown: Vec<String> = fields
                    .iter()
                    .take(self.cfg.collection_preview_items)
                    .map(|(k, v)| {
                        // A local's fields share its width; text in them
                        // keeps a nested value's shorter leash.
                        let room = match v {
                            Value::Seq { .. } | Value::Map { .. } | Value::Object { .. } if top => {
                                budget
                            }
                            _ => inner,
                        };
                        let v = self.best(v, room, levels - 1);
                        if k.is_empty() {
                            v
                        } else {
                            format!("{k}{sep}{v}")
                        }
                    })
                    .collect();
                let cut = *more || fields.len() > shown.len();
                let (open, close) = match (top, name.is_empty()) {
                    (true, _) => (format!("<{name}: "), ">".to_string()),
                    (false, true) => ("{".to_string(), "}".to_string()),
                    (false, false) => (format!("{name} {{"), "}".to_string()),
                };
                fit_fields(&open, &close, shown, cut, budget)
            }
        }
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::Atom { .. } | Value::Nil { .. })
}

/// A variant's payload that is one set of named fields, with no type of
/// its own.
fn is_fields(items: &[Value]) -> bool {
    matches!(items, [Value::Object { type_name, .. }] if type_name.is_empty())
}

fn seq_label(type_name: &str, open: char) -> String {
    match short_type(type_name) {
        t if !t.is_empty() && t != "?" => t,
        _ => match open {
            '(' => "tuple".into(),
            '{' => "set".into(),
            _ => "list".into(),
        },
    }
}

/// Numbers are never cut: a shortened number is a different number.
fn cut_atom(a: &str, limit: usize) -> String {
    let numeric = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_digit() || "+-.eEjx_abcdefABCDEF()".contains(c))
        && a.chars().any(|c| c.is_ascii_digit());
    let n = a.chars().count();
    if numeric || n <= limit {
        a.replace('\n', "\\n")
    } else {
        format!("{} ({n} chars)", truncate(a, limit))
    }
}

/// `[a, b, ...] (n items)` with as many items as fit `limit`; the count,
/// after the closing bracket, is never what gets cut.
fn fit_items(open: char, close: char, shown: Vec<String>, count: Count, limit: usize) -> String {
    if count == Count::Exact(shown.len()) {
        let all = format!("{open}{}{close}", shown.join(", "));
        if all.chars().count() <= limit {
            return all;
        }
    }
    let tail = format!(" ({})", count_items(count));
    let mut kept: Vec<String> = vec![];
    // The brackets, `...` and the count.
    let mut used = tail.chars().count() + 5;
    for item in shown {
        let w = item.chars().count() + 2;
        if used + w > limit && !kept.is_empty() {
            break;
        }
        used += w;
        kept.push(item);
    }
    kept.push("...".into());
    format!("{open}{}{close}{tail}", kept.join(", "))
}

/// An object's fields, as many as fit `limit`, then `...` for the rest.
fn fit_fields(open: &str, close: &str, shown: Vec<String>, cut: bool, limit: usize) -> String {
    let all = format!(
        "{open}{}{}{close}",
        shown.join(", "),
        if cut { ", ..." } else { "" }
    );
    if all.chars().count() <= limit {
        return all;
    }
    let total = shown.len();
    let mut kept: Vec<String> = vec![];
    let mut used = open.chars().count() + close.chars().count() + 5;
    for field in shown {
        let w = field.chars().count() + 2;
        if used + w > limit && !kept.is_empty() {
            break;
        }
        used += w;
        kept.push(field);
    }
    // Too wide, though nothing was left out: `...` would claim more.
    if kept.len() == total && !cut {
        return all;
    }
    kept.push("...".into());
    format!("{open}{}{close}", kept.join(", "))
}

/// A string in the viewport's double quotes. A cut string says so and how
/// long it is (a lower bound when the adapter cut it).
fn render_string(
    s: &str,
    prefix: &str,
    was_cut: bool,
    length: Option<usize>,
    limit: usize,
) -> String {
    let n = s.chars().count();
    // The limit counts the string's characters, not its quotes.
    if n <= limit && !was_cut {
        return format!("{prefix}\"{s}\"");
    }
    let size = match (length, was_cut) {
        (Some(len), _) => format!(" ({len} chars)"),
        // No length could be read: the language has no length expression
        // (a native string's length needs a call into the program), the
        // value has no expression, or the stop had more cut strings than
        // it reads lengths for.
        (None, true) => format!(" (more than {n} chars)"),
        (None, false) => format!(" ({n} chars)"),
    };
    // The whole, with its length, stays within the limit.
    let room = limit.saturating_sub(prefix.len() + 5 + size.len()).max(1);
    let head: String = s.chars().take(room).collect();
    format!("{prefix}\"{head}...\"{size}")
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

    fn lang(word: &str) -> crate::adapters::value::LanguageOf {
        let adapter = crate::adapters::by_name_or_language(word).expect("a known language");
        crate::adapters::value::LanguageOf(Some(adapter.language()))
    }

    fn var(name: &str, t: &str, value: &str) -> Var {
        in_language("python", name, t, value)
    }

    fn go(name: &str, t: &str, value: &str) -> Var {
        in_language("go", name, t, value)
    }

    fn in_language(language: &str, name: &str, t: &str, value: &str) -> Var {
        Var {
            language: lang(language),
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
            not_read: None,
            composed: false,
        }
    }

    fn atom(t: &str) -> Value {
        Value::Atom { text: t.into() }
    }

    fn fields(type_name: &str, f: &[(&str, Value)]) -> Value {
        Value::Object {
            type_name: type_name.into(),
            fields: f.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
            more: false,
        }
    }

    fn tuple(items: &[&str]) -> Value {
        Value::Seq {
            type_name: String::new(),
            open: '(',
            close: ')',
            count: Count::Exact(items.len()),
            items: items.iter().map(|i| atom(i)).collect(),
        }
    }

    #[test]
    fn a_variant_too_wide_is_left_out_whole_never_cut_open() {
        let variant = |name: &str, payload: Value| Value::Variant {
            name: name.into(),
            items: vec![payload],
        };
        let events = Value::Seq {
            type_name: "Vec<Event>".into(),
            open: '[',
            close: ']',
            count: Count::Exact(3),
            items: vec![
                variant(
                    "Event::Feed",
                    fields("", &[("animal", atom("\"cat\"")), ("grams", atom("120"))]),
                ),
                variant(
                    "Event::Move",
                    fields(
                        "",
                        &[("from", tuple(&["1", "2"])), ("to", tuple(&["3", "-4"]))],
                    ),
                ),
                Value::Variant {
                    name: "Event::Sleep".into(),
                    items: vec![],
                },
            ],
        };
        let text = render_value(&events, &ViewportConfig::default(), 0);
        // It read `Event::Move {from: <tuple: 2 items>, ..., Event::Sleep`:
        // Sleep as if a field of Move.
        assert!(
            text.contains("Event::Move {from: (1, 2), to: (3, -4)}"),
            "{text}"
        );
        let mut opened = 0i32;
        for c in text.chars() {
            match c {
                '{' | '(' | '[' => opened += 1,
                '}' | ')' | ']' => opened -= 1,
                _ => {}
            }
            assert!(opened >= 0, "{text}");
        }
        assert_eq!(opened, 0, "every bracket closed: {text}");
        // Where even one field does not fit, the payload is left out whole.
        let narrow = Render {
            cfg: &ViewportConfig::default(),
        }
        .show(&events.clone(), 30, 2, false);
        assert!(!narrow.contains("{from"), "{narrow}");
        let tuple_variant = variant("Cat::Gadget", atom(&"x".repeat(80)));
        let cut = Render {
            cfg: &ViewportConfig::default(),
        }
        .show(&tuple_variant, 30, 2, false);
        assert!(
            cut.starts_with("Cat::Gadget(") && cut.ends_with(')'),
            "{cut}"
        );
    }

    #[test]
    fn a_value_not_read_says_why_and_nothing_else() {
        let mut v = var("item", "Item", "Some(garbage)");
        v.not_read = Some("the adapter took longer than 3000 ms".into());
        assert_eq!(
            render(&v, &ViewportConfig::default(), 0),
            "<not read: the adapter took longer than 3000 ms>"
        );
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
        assert_eq!(render(&l, &cfg, 0), "[1, 2, 3, 4, 5, ...] (47 items)");
    }

    #[test]
    fn collections_from_reprs() {
        let cfg = ViewportConfig::default();
        let mut l = var("l", "list", "[1, 2, 3]");
        l.reference = 5;
        assert_eq!(render(&l, &cfg, 0), "[1, 2, 3]");
        l.value = "[1, 2, 3, 4, 5, 6, 7]".into();
        assert_eq!(render(&l, &cfg, 0), "[1, 2, 3, 4, 5, ...] (7 items)");
        let mut d = var("d", "dict", "{'gold': 0.1, 'silver': 0.05}");
        d.reference = 6;
        assert_eq!(render(&d, &cfg, 0), "{\"gold\": 0.1, \"silver\": 0.05}");
    }

    #[test]
    fn typed_values_render_like_objects_and_lists() {
        let cfg = ViewportConfig::default();
        let r = |t: &str, v: &str| render(&go("x", t, v), &cfg, 0);
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
            "[Item {Name: \"a\", Price: 1}, Item {Name: \"b\", Price: 2}, Item {Name: \"c\", Price: 3}]"
        );
        assert_eq!(
            r(
                "*main.Cart",
                "*main.Cart {Items: []main.Item len: 3, cap: 4, [(*main.Item)(0xc0000ac000),(*main.Item)(0xc0000ac020)]}"
            ),
            "<Cart: Items=[<Item>, <Item>, ...] (3 items)>"
        );
        assert_eq!(
            r(
                "[]int",
                "[]int len: 100, cap: 100, [0,1,2,3,4,5,6,7,8,9,...+90 more]"
            ),
            "[0, 1, 2, 3, 4, ...] (100 items)"
        );
        assert_eq!(
            r(
                "map[string]int",
                "map[string]int [\"gold\": 10, \"silver\": 5, ]"
            ),
            "{\"gold\": 10, \"silver\": 5}"
        );
        assert_eq!(r("*main.Item", "*main.Item nil"), "nil");
        // Pointers and interfaces as Go's adapter wrote them at a stop.
        assert_eq!(
            r(
                "map[string]*main.Item",
                "map[string]*main.Item [\"h\": *{ID: 1, Name: \"hammer\"}, ]"
            ),
            "{\"h\": *Item {ID: 1, Name: \"hammer\"}}"
        );
        assert_eq!(
            r(
                "main.Cart",
                "main.Cart {Items: []*main.Item len: 2, cap: 2, [*(*main.Item)(0x28036ad9c318),*nil]}"
            ),
            "<Cart: Items=[*Item {...}, nil]>"
        );
        assert_eq!(
            r(
                "main.Shape(*main.Circle)",
                "main.Shape(*main.Circle) *{R: 1.5}"
            ),
            "<Circle: R=1.5>"
        );
        assert_eq!(
            r("main.Point", "main.Point {X: 3, Y: 4}"),
            "<Point: X=3, Y=4>"
        );
        let mut deeper = cfg.clone();
        deeper.locals_max_depth = 2;
        assert_eq!(
            render(
                &go(
                    "items",
                    "[]main.Item",
                    "[]main.Item len: 1, cap: 1, [{Name: \"a\", Price: 1}]"
                ),
                &deeper,
                0
            ),
            "[Item {Name: \"a\", Price: 1}]"
        );
    }

    #[test]
    fn objects_show_type_and_fields() {
        let cfg = ViewportConfig::default();
        let mut u = var("user", "__main__.User", "<__main__.User object at 0x1>");
        u.reference = 3;
        let dunder = Var {
            hidden: true,
            composed: false,
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
        assert_eq!(render(&c, &cfg, 0), "<Cart: items=[<Item>, <Item>]>");
        let mut i = var("item", "Item", "Item(name='cable', price=9.99, quantity=3)");
        i.reference = 5;
        assert_eq!(
            render(&i, &cfg, 0),
            "<Item: name=\"cable\", price=9.99, quantity=3>"
        );
        let mut deeper = cfg.clone();
        deeper.locals_max_depth = 2;
        assert_eq!(
            render(&c, &deeper, 0),
            "<Cart: items=[Item {name: \"a\", price: 1.0, ...}, Item {name: \"b\", price: 2.0, ...}]>"
        );
        deeper.locals_max_depth = 3;
        assert_eq!(
            render(&c, &deeper, 0),
            "<Cart: items=[Item {name: \"a\", price: 1.0, ...}, Item {name: \"b\", price: 2.0, ...}]>"
        );
    }
}
