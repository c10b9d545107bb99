//! What the adapter has shown about a collection type's elements. Where
//! every element of, say, `&[shop::Item]` came back as its bare type name
//! (a struct with no summary), a later preview of the same type can say
//! `[<Item>, <Item>, <Item>]` from the collection's own `size=3` without a
//! read: a type's elements keep their type, and a preview one level down
//! shows them by type alone. An adapter whose reads are slow (one that runs
//! its formatters for each) saves a request per stop.

use crate::sync::Locked;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::types::Var;

/// Element children made up for a preview: as many as a preview can show.
const MADE_UP: usize = 20;

#[derive(Clone, Default)]
pub struct ElementShapes {
    /// Collection type → its elements' type, for the collections seen.
    opaque: Arc<Mutex<HashMap<String, String>>>,
}

impl ElementShapes {
    /// Remembers `collection`'s element type when all of `children` (its
    /// elements, read) showed as their type name and nothing more.
    pub fn learn(&self, collection: &Var, children: &[Var]) {
        if size_of(collection).is_none() {
            return;
        }
        let elements: Vec<&Var> = children.iter().filter(|c| c.name != "len()").collect();
        let Some(first) = elements.first() else {
            return;
        };
        let opaque = elements
            .iter()
            .all(|c| !c.truncated && c.value == c.type_name && c.type_name == first.type_name);
        let mut known = self.opaque.locked();
        if opaque {
            known.insert(collection.type_name.clone(), first.type_name.clone());
        } else {
            known.remove(&collection.type_name);
        }
    }

    /// A preview's children for `collection`, when its type is known to
    /// hold opaque elements: the first elements by type, and its count.
    pub fn preview(&self, collection: &Var) -> Option<Vec<Var>> {
        let n = size_of(collection)?;
        let element = self.opaque.locked().get(&collection.type_name).cloned()?;
        let mut children: Vec<Var> = (0..n.min(MADE_UP))
            .map(|i| Var {
                name: format!("[{i}]"),
                value: element.clone(),
                type_name: element.clone(),
                language: collection.language,
                ..Var::default()
            })
            .collect();
        children.push(Var {
            name: "len()".into(),
            value: n.to_string(),
            type_name: "int".into(),
            hidden: true,
            composed: false,
            ..Var::default()
        });
        Some(children)
    }
}

/// The element count in a collection's summary (`size=3`).
fn size_of(v: &Var) -> Option<usize> {
    v.value.strip_prefix("size=")?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn var(name: &str, value: &str, type_name: &str) -> Var {
        Var {
            name: name.into(),
            value: value.into(),
            type_name: type_name.into(),
            reference: 7,
            ..Var::default()
        }
    }

    #[test]
    fn a_collection_of_opaque_structs_is_previewed_from_its_size() {
        let shapes = ElementShapes::default();
        let items = var("items", "size=3", "&[shop::Item]");
        assert!(shapes.preview(&items).is_none(), "nothing learnt yet");
        let read: Vec<Var> = (0..3)
            .map(|i| var(&format!("[{i}]"), "shop::Item", "shop::Item"))
            .collect();
        shapes.learn(&items, &read);
        let two = var("items", "size=2", "&[shop::Item]");
        let made = shapes.preview(&two).expect("known");
        let names: Vec<&str> = made.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["[0]", "[1]", "len()"]);
        assert_eq!(made[0].value, "shop::Item");
        assert_eq!(made[2].value, "2");
    }

    #[test]
    fn elements_with_values_of_their_own_are_always_read() {
        let shapes = ElementShapes::default();
        let colors = var("colors", "size=2", "alloc::vec::Vec<shop::Color>");
        shapes.learn(
            &colors,
            &[
                var("[0]", "Red", "shop::Color"),
                var("[1]", "shop::Color", "shop::Color"),
            ],
        );
        assert!(shapes.preview(&colors).is_none());
        let numbers = var("n", "size=2", "alloc::vec::Vec<u32>");
        shapes.learn(&numbers, &[var("[0]", "1", "u32"), var("[1]", "2", "u32")]);
        assert!(shapes.preview(&numbers).is_none());
        // A value that is not a sized collection teaches nothing.
        let user = var("user", "shop::User", "shop::User");
        shapes.learn(&user, &[var("tier", "shop::Tier", "shop::Tier")]);
        assert!(
            shapes
                .preview(&var("user", "shop::User", "shop::User"))
                .is_none()
        );
    }
}
