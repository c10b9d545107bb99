//! A container's children as its language reads them, where the adapter
//! lists them otherwise: a map's key and value pairs as entries, a child's
//! type as the container's type names it, a shell opened through.

use super::types::Var;
use crate::adapters::Language;

/// A map's key and value children as one child per entry, named by its
/// key (`["widget"] = 3`), where the language reads them so.
pub fn as_entries(language: &dyn Language, container_type: &str, kids: Vec<Var>) -> Vec<Var> {
    let pairs: Vec<(&str, &str)> = kids
        .iter()
        .map(|v| (v.name.as_str(), v.value.as_str()))
        .collect();
    let Some(entries) = language.entries(container_type, &pairs) else {
        return kids;
    };
    entries
        .into_iter()
        .filter_map(|(name, i)| {
            let mut v = kids.get(i)?.clone();
            v.name = name;
            Some(v)
        })
        .collect()
}

/// Each child's name, and its type as the language reads it inside a
/// container of type `container_type`; a child the language says is not followed (a raw
/// pointer among a library's internals) is left unopened, its address
/// shown, never a read through it.
pub fn typed(language: &dyn Language, container_type: &str, kids: &mut [Var]) {
    for v in kids {
        if let Some(name) = language.child_name(&v.name) {
            v.name = name;
        }
        if let Some((type_name, follow)) = language.child_type(container_type, &v.type_name) {
            v.type_name = type_name;
            if !follow {
                v.reference = 0;
                v.indexed = None;
            }
        }
    }
}

/// Whether a container of `container_type` whose one child is `child`
/// opens to that child's children: the child is a level the adapter adds
/// and the program does not have.
pub fn opens_through(language: &dyn Language, container_type: &str, child: &Var) -> bool {
    child.reference > 0
        && (child.name.is_empty()
            || child.name.starts_with('*')
            || language.opens_through(container_type, &child.name, &child.type_name))
}
