//! libstdc++'s printers as gdb sends them over DAP: a container's value is
//! its summary (`std::map with 2 elements`, `std::vector of length 3,
//! capacity 3`), and a map's children come as keys and values in turn,
//! named by position (`[0]` the first key, `[1]` its value).

/// The element count a libstdc++ summary states.
pub fn sized(value: &str) -> Option<usize> {
    let v = value.trim();
    if !v.starts_with("std::") {
        return None;
    }
    let count = if let Some((_, rest)) = v.split_once(" with ") {
        rest.strip_suffix(" elements")
            .or_else(|| rest.strip_suffix(" element"))?
    } else {
        let (_, rest) = v.split_once(" of length ")?;
        rest.split(',').next()?
    };
    count.trim().parse().ok()
}

/// The standard maps, whose children are keys and values in turn.
pub fn is_map(type_name: &str) -> bool {
    let t = type_name.trim_start_matches("const ");
    [
        "std::map<",
        "std::multimap<",
        "std::unordered_map<",
        "std::unordered_multimap<",
    ]
    .iter()
    .any(|p| t.starts_with(p) || t.starts_with(&p.replacen("std::", "std::__debug::", 1)))
}

/// A child: its name, and what is read of it.
type Child<'a, T> = (&'a str, T);

/// A map's children in pairs, when each is named by its position.
fn pairs<'a, T: Copy>(
    children: &'a [Child<'a, T>],
) -> Option<impl Iterator<Item = (Child<'a, T>, Child<'a, T>)> + 'a> {
    if children.is_empty() || !children.len().is_multiple_of(2) {
        return None;
    }
    let positional = children
        .iter()
        .enumerate()
        .all(|(i, (name, _))| *name == format!("[{i}]"));
    positional.then(|| children.chunks(2).map(|p| (p[0], p[1])))
}

/// Each entry as a row named by its key (`["food"]`), holding its value's
/// child; a key that repeats (a multimap) says which of its entries each
/// is: `[1] (2 of 2)`.
pub fn entries(children: &[(&str, &str)]) -> Option<Vec<(String, usize)>> {
    let keys: Vec<String> = pairs(children)?
        .map(|((_, key), _)| key.trim().to_string())
        .collect();
    if keys.iter().any(String::is_empty) {
        return None;
    }
    let rows = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let of = keys.iter().filter(|k| *k == key).count();
            let nth = keys[..=i].iter().filter(|k| *k == key).count();
            let name = match of {
                1 => format!("[{key}]"),
                _ => format!("[{key}] ({nth} of {of})"),
            };
            (name, 2 * i + 1)
        })
        .collect();
    Some(rows)
}

/// `"food": -325` for each entry whose key and value were both read.
pub fn entry_texts(children: &[(&str, Option<&str>)]) -> Option<Vec<String>> {
    pairs(children)?
        .map(|((_, k), (_, v))| Some(format!("{}: {}", k?, v?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_state_their_counts() {
        assert_eq!(sized("std::map with 2 elements"), Some(2));
        assert_eq!(sized("std::unordered_map with 1 element"), Some(1));
        assert_eq!(sized("std::vector of length 3, capacity 4"), Some(3));
        assert_eq!(sized("std::__cxx11::list of length 0"), Some(0));
        assert_eq!(sized("\"std::map with 2 elements\""), None);
        assert_eq!(sized("std::string"), None);
    }

    #[test]
    fn map_children_pair_into_rows_named_by_their_keys() {
        assert!(is_map(
            "std::map<int, int, std::less<int>, std::allocator<std::pair<int const, int> > >"
        ));
        assert!(is_map("const std::unordered_map<int, int>"));
        assert!(!is_map("std::vector<int, std::allocator<int> >"));
        let kids = [
            ("[0]", "\"food\""),
            ("[1]", "-325"),
            ("[2]", "\"rent\""),
            ("[3]", "1200"),
        ];
        assert_eq!(
            entries(&kids),
            Some(vec![
                ("[\"food\"]".to_string(), 1),
                ("[\"rent\"]".to_string(), 3)
            ])
        );
        let repeats = [("[0]", "1"), ("[1]", "10"), ("[2]", "1"), ("[3]", "11")];
        assert_eq!(
            entries(&repeats),
            Some(vec![
                ("[1] (1 of 2)".to_string(), 1),
                ("[1] (2 of 2)".to_string(), 3)
            ])
        );
        assert_eq!(entries(&[("first", "1"), ("second", "2")]), None);
        let texts = [("[0]", Some("\"food\"")), ("[1]", Some("-325"))];
        assert_eq!(
            entry_texts(&texts),
            Some(vec!["\"food\": -325".to_string()])
        );
        assert_eq!(entry_texts(&[("[0]", Some("1")), ("[1]", None)]), None);
    }
}
