//! Paths to variables (`cart.items[0].price`): splitting them, turning them
//! into Python, finding their parts among a value's children, and which
//! names are the program's own.

use super::types::Var;

/// Whether a variable is the program's own, worth showing: not one of
/// debugpy's groups and not a dunder.
pub fn is_shown(name: &str) -> bool {
    !is_hidden_group(name) && !name.starts_with("__")
}

/// debugpy groups dunder and function members under these pseudo-variables.
pub fn is_hidden_group(name: &str) -> bool {
    matches!(
        name,
        "special variables" | "function variables" | "class variables" | "protected variables"
    )
}

/// Splits `cart.items[0]['k']` into `["cart", "items", "0", "'k'"]`.
pub fn split_path(path: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut chars = path.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '.' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            '[' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    cur.push(d);
                }
                out.push(std::mem::take(&mut cur));
            }
            _ => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `cart.items.0` or `cart.items[0]` as Python: `cart.items[0]`. None when
/// the path is not one (so no code can ride in on a name).
pub fn path_expression(path: &str) -> Option<String> {
    let segs = split_path(path);
    let (first, rest) = segs.split_first()?;
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !s.starts_with(|c: char| c.is_ascii_digit())
    };
    if !ident(first) {
        return None;
    }
    let mut out = first.clone();
    for seg in rest {
        if seg.parse::<i64>().is_ok() {
            out.push_str(&format!("[{seg}]"));
        } else if ident(seg) {
            out.push('.');
            out.push_str(seg);
        } else if (seg.starts_with('\'') && seg.ends_with('\'')
            || seg.starts_with('"') && seg.ends_with('"'))
            && seg.len() >= 2
            && !seg[1..seg.len() - 1].contains(['\'', '"', '\\'])
        {
            out.push_str(&format!("[{seg}]"));
        } else {
            return None;
        }
    }
    Some(out)
}

/// Finds a child by a path segment, looking through debugpy's groups too.
pub fn find_child<'a>(children: &'a [Var], seg: &str) -> Option<&'a Var> {
    let quoted = [format!("'{seg}'"), format!("\"{seg}\"")];
    // debugpy zero-pads list indices ("007" in a list of 120).
    let index = seg.parse::<usize>().ok();
    children
        .iter()
        .find(|v| v.name == seg)
        .or_else(|| children.iter().find(|v| quoted.contains(&v.name)))
        .or_else(|| {
            index.and_then(|i| {
                children
                    .iter()
                    .find(|v| v.name.parse::<usize>().ok() == Some(i))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_python() {
        assert_eq!(
            path_expression("cart.items.0.price").as_deref(),
            Some("cart.items[0].price")
        );
        assert_eq!(path_expression("d['k']").as_deref(), Some("d['k']"));
        assert_eq!(path_expression("x").as_deref(), Some("x"));
        assert_eq!(path_expression("__import__('os').system('x')"), None);
        assert_eq!(path_expression("a; b"), None);
        assert_eq!(path_expression("0x"), None);
    }

    #[test]
    fn paths_split_on_dots_and_brackets() {
        assert_eq!(split_path("cart.items[0]"), vec!["cart", "items", "0"]);
        assert_eq!(split_path("d['k'].x"), vec!["d", "'k'", "x"]);
        assert_eq!(split_path("a"), vec!["a"]);
    }
}
