//! A map the adapter lists as one element per entry, each holding its key
//! and its mapped value as members (a C++ `std::pair`): shown as one row
//! per entry, named by its key (`["food"] = -325`) and holding the mapped
//! value itself, so a container value opens as any other does.

use std::collections::HashMap;

use super::link::Link;
use super::reads;
use super::types::Var;

/// The entries of a map of `container_type` from its listed elements
/// `kids`; the elements as they are where the language names no members
/// for the type, or where any element lacks them or its key's text.
pub async fn read(client: &Link, container_type: &str, kids: Vec<Var>) -> Vec<Var> {
    let Some((key, mapped)) = client.language().entry_members(container_type) else {
        return kids;
    };
    if kids.is_empty() || kids.iter().any(|k| k.reference <= 0) {
        return kids;
    }
    let reads =
        futures::future::join_all(kids.iter().map(|k| reads::variables(client, k.reference))).await;
    let mut pairs = Vec::with_capacity(kids.len());
    for members in reads {
        let Ok(members) = members else {
            return kids;
        };
        let k = members.iter().find(|m| m.name == key);
        let v = members.iter().find(|m| m.name == mapped);
        let (Some(k), Some(v)) = (k, v) else {
            return kids;
        };
        let text = k.value.trim();
        if text.is_empty() || text.contains('\n') || k.truncated {
            return kids;
        }
        pairs.push((format!("[{text}]"), v.clone()));
    }
    named(pairs)
}

/// Each entry named by its key; where keys repeat (a multimap), each of
/// them says which of its key's entries it is: `[1] (2 of 3)`.
fn named(pairs: Vec<(String, Var)>) -> Vec<Var> {
    let mut counts: HashMap<String, usize> = HashMap::new();
    for (name, _) in &pairs {
        *counts.entry(name.clone()).or_default() += 1;
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    pairs
        .into_iter()
        .map(|(name, mut v)| {
            let of = counts.get(&name).copied().unwrap_or(1);
            let nth = seen.entry(name.clone()).or_default();
            *nth += 1;
            v.name = if of > 1 {
                format!("{name} ({nth} of {of})")
            } else {
                name
            };
            // The adapter's own expression goes through the library's
            // internals; the entry's path is its key under the map's.
            v.evaluate_name = None;
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_say_which_entry_they_are() {
        let v = |n: &str| {
            (
                n.to_string(),
                Var {
                    evaluate_name: Some("m._M_t[0].second".into()),
                    ..Default::default()
                },
            )
        };
        let rows = named(vec![v("[1]"), v("[1]"), v("[2]")]);
        let names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["[1] (1 of 2)", "[1] (2 of 2)", "[2]"]);
        assert!(rows.iter().all(|r| r.evaluate_name.is_none()));
    }
}
