//! C++ maps as lldb's formatters list them: one `std::pair` per element,
//! its key in `first` and its mapped value in `second`.

/// The standard library's maps, whose elements are `std::pair<const K, V>`.
const MAPS: &[&str] = &["map", "multimap", "unordered_map", "unordered_multimap"];

/// `first` and `second` for a standard map's type (`std::map<int, int>`,
/// libc++'s `std::__1::map<..>`); None for any other type.
pub fn entry_members(container_type: &str) -> Option<(&'static str, &'static str)> {
    let t = container_type.trim().trim_start_matches("const ");
    let head = t.split('<').next().unwrap_or(t).trim();
    if !head.starts_with("std::") || !t.contains('<') {
        return None;
    }
    let short = head.rsplit("::").next().unwrap_or(head);
    MAPS.contains(&short).then_some(("first", "second"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_maps_list_pairs() {
        for t in [
            "std::map<std::string, int>",
            "std::multimap<int, int>",
            "std::unordered_map<std::basic_string<char>, int>",
            "std::__1::map<int, int>",
        ] {
            assert_eq!(entry_members(t), Some(("first", "second")), "{t}");
        }
        for t in ["std::vector<int>", "mymap<int>", "std::map", "int"] {
            assert_eq!(entry_members(t), None, "{t}");
        }
    }
}
