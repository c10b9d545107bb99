//! rustc names each thin pointer's type in its DWARF (`&main::Item`,
//! `&mut main::Item`, `*const main::Item`); gdb drops that name and calls
//! them all `*mut main::Item`. The kind is read here from the program's
//! own file instead: for each variable, parameter and field, the kind of
//! pointer it is declared as, keyed by its name and the type it points at.
//! A kind is told only where every declaration of that name and target in
//! the program agrees, so a kind the program may not have is never shown;
//! a local's kind can also be settled by its function's own declarations
//! (`self` is `&Store` in one method and `&mut Store` in the next).

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use gimli::{AttributeValue, EndianSlice, RunTimeEndian};
use object::{Object, ObjectSection};

use crate::adapters::declared_types::{DeclaredTypes, DeclaredTypesRef};
use crate::sync::Locked;

/// A thin pointer's kinds as rustc spells its type, `&mut ` before `&`.
const KINDS: [&str; 4] = ["&mut ", "&", "*const ", "*mut "];

type Reader<'a> = EndianSlice<'a, RunTimeEndian>;

/// For each (name, target) the one kind every declaration agrees on, or
/// `None` where they disagree; and the same within each function.
#[derive(Debug, Default)]
pub struct PointerKinds {
    by_name: HashMap<(String, String), Option<&'static str>>,
    in_function: HashMap<(String, String, String), Option<&'static str>>,
}

impl PointerKinds {
    /// The kinds `program`'s DWARF declares; `None` when it cannot be read.
    pub fn read(program: &Path) -> Option<PointerKinds> {
        let data = std::fs::read(program).ok()?;
        let file = object::File::parse(&*data).ok()?;
        let endian = match file.is_little_endian() {
            true => RunTimeEndian::Little,
            false => RunTimeEndian::Big,
        };
        let sections = gimli::DwarfSections::load(|id| -> Result<Cow<'_, [u8]>, object::Error> {
            match file.section_by_name(id.name()) {
                Some(s) => s.uncompressed_data(),
                None => Ok(Cow::Borrowed(&[])),
            }
        })
        .ok()?;
        let dwarf = sections.borrow(|s| EndianSlice::new(s, endian));
        let mut kinds = PointerKinds::default();
        let mut units = dwarf.units();
        while let Ok(Some(header)) = units.next() {
            if let Ok(unit) = dwarf.unit(header) {
                kinds.read_unit(&dwarf, &unit);
            }
        }
        Some(kinds)
    }

    /// One compilation unit's declarations; a unit not in Rust has none
    /// of these names (C's pointer types are unnamed).
    fn read_unit(&mut self, dwarf: &gimli::Dwarf<Reader<'_>>, unit: &gimli::Unit<Reader<'_>>) {
        let mut pointers: HashMap<usize, (&'static str, String)> = HashMap::new();
        let mut declared: Vec<(Option<Arc<str>>, String, usize)> = vec![];
        // The functions the walk is inside, by depth: an inlined body is
        // a function of no name here, so its locals count only by name.
        let mut functions: Vec<(isize, Option<Arc<str>>)> = vec![];
        let mut entries = unit.entries();
        let mut first = true;
        while let Ok(Some(entry)) = entries.next_dfs() {
            if std::mem::take(&mut first) && !is_rust(entry) {
                return;
            }
            let tag = entry.tag();
            while functions.last().is_some_and(|(d, _)| *d >= entry.depth()) {
                functions.pop();
            }
            if tag == gimli::DW_TAG_subprogram || tag == gimli::DW_TAG_inlined_subroutine {
                let name = (tag == gimli::DW_TAG_subprogram)
                    .then(|| function_name(dwarf, unit, entry))
                    .flatten();
                functions.push((entry.depth(), name));
                continue;
            }
            let is_declaration = [
                gimli::DW_TAG_variable,
                gimli::DW_TAG_formal_parameter,
                gimli::DW_TAG_member,
            ]
            .contains(&tag);
            if tag != gimli::DW_TAG_pointer_type && !is_declaration {
                continue;
            }
            let Some(name) = entry
                .attr_value(gimli::DW_AT_name)
                .and_then(|n| dwarf.attr_string(unit, n).ok())
                .and_then(|n| n.to_string().ok().map(str::to_string))
            else {
                continue;
            };
            if tag == gimli::DW_TAG_pointer_type {
                if let Some((kind, target)) = split_kind(&name) {
                    pointers.insert(entry.offset().0, (kind, target.to_string()));
                }
            } else if let Some(AttributeValue::UnitRef(offset)) =
                entry.attr_value(gimli::DW_AT_type)
            {
                let function = match tag == gimli::DW_TAG_member {
                    true => None,
                    false => functions.last().and_then(|(_, f)| f.clone()),
                };
                declared.push((function, name, offset.0));
            }
        }
        for (function, name, offset) in declared {
            if let Some((kind, target)) = pointers.get(&offset) {
                self.declare(function.as_deref(), name, target.clone(), kind);
            }
        }
    }

    fn declare(
        &mut self,
        function: Option<&str>,
        name: String,
        target: String,
        kind: &'static str,
    ) {
        if let Some(function) = function {
            let key = (function.to_string(), name.clone(), target.clone());
            agree(self.in_function.entry(key).or_insert(Some(kind)), kind);
        }
        agree(
            self.by_name.entry((name, target)).or_insert(Some(kind)),
            kind,
        );
    }

    /// The kind of the pointer `name` to `target`, where the program's
    /// declarations agree on one.
    pub fn kind(&self, name: &str, target: &str) -> Option<&'static str> {
        self.by_name
            .get(&(name.to_string(), target.to_string()))
            .copied()
            .flatten()
    }

    /// The kind of the local `name` to `target`, where its function's
    /// declarations agree on one.
    pub fn kind_in(&self, function: &str, name: &str, target: &str) -> Option<&'static str> {
        self.in_function
            .get(&(function.to_string(), name.to_string(), target.to_string()))
            .copied()
            .flatten()
    }
}

/// A kind stays told while every declaration says the same.
fn agree(told: &mut Option<&'static str>, kind: &'static str) {
    if *told != Some(kind) {
        *told = None;
    }
}

impl DeclaredTypes for PointerKinds {
    /// gdb's `*mut T` as the kind of pointer the program declares.
    fn type_of(&self, name: &str, type_name: &str) -> Option<String> {
        let target = type_name.strip_prefix("*mut ")?;
        let kind = self.kind(name, target)?;
        Some(format!("{kind}{target}"))
    }

    /// A local's kind not told by its name alone, told by its function's.
    fn type_in(&self, function: &str, name: &str, type_name: &str) -> Option<String> {
        let target = super::pointer_kind::untold_target(type_name)?;
        let kind = self.kind_in(function, name, target)?;
        Some(format!("{kind}{target}"))
    }
}

/// A function's name as gdb's frames give it (`shop::Store::total`): its
/// linkage name demangled, without the hash.
fn function_name(
    dwarf: &gimli::Dwarf<Reader<'_>>,
    unit: &gimli::Unit<Reader<'_>>,
    entry: &gimli::DebuggingInformationEntry<Reader<'_>>,
) -> Option<Arc<str>> {
    let linkage = entry.attr_value(gimli::DW_AT_linkage_name)?;
    let linkage = dwarf.attr_string(unit, linkage).ok()?;
    let linkage = linkage.to_string().ok()?;
    let demangled = rustc_demangle::try_demangle(linkage).ok()?;
    Some(format!("{demangled:#}").into())
}

fn is_rust(unit_entry: &gimli::DebuggingInformationEntry<Reader<'_>>) -> bool {
    matches!(
        unit_entry.attr_value(gimli::DW_AT_language),
        Some(AttributeValue::Language(l)) if l == gimli::DW_LANG_Rust
    )
}

/// `&mut main::Item` as its kind and target; a pointer to a pointer is
/// left alone, since gdb spells the inner one `*mut` too.
fn split_kind(type_name: &str) -> Option<(&'static str, &str)> {
    let (kind, target) = KINDS
        .iter()
        .find_map(|k| type_name.strip_prefix(k).map(|t| (*k, t)))?;
    (!target.starts_with(['&', '*'])).then_some((kind, target))
}

/// The program's kinds, read once per build of it: a rebuilt program
/// (another modification time or size) is read again.
pub fn for_program(program: &Path) -> Option<DeclaredTypesRef> {
    type Key = (PathBuf, SystemTime, u64);
    static READ: OnceLock<Mutex<HashMap<Key, Option<Arc<PointerKinds>>>>> = OnceLock::new();
    let meta = std::fs::metadata(program).ok()?;
    let key = (program.to_path_buf(), meta.modified().ok()?, meta.len());
    let read = READ.get_or_init(Default::default);
    if let Some(found) = read.locked().get(&key) {
        return found.clone().map(|k| k as DeclaredTypesRef);
    }
    let found = PointerKinds::read(program).map(Arc::new);
    let mut all = read.locked();
    all.retain(|k, _| k.0 != key.0);
    all.insert(key, found.clone());
    found.map(|k| k as DeclaredTypesRef)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_told_only_where_every_declaration_agrees() {
        let mut kinds = PointerKinds::default();
        kinds.declare(Some("main::f"), "r".into(), "main::Item".into(), "&");
        kinds.declare(None, "r".into(), "main::Item".into(), "&");
        kinds.declare(Some("main::show"), "item".into(), "main::Item".into(), "&");
        kinds.declare(
            Some("main::bump"),
            "item".into(),
            "main::Item".into(),
            "&mut ",
        );
        assert_eq!(
            kinds.type_of("r", "*mut main::Item").as_deref(),
            Some("&main::Item")
        );
        assert_eq!(kinds.type_of("item", "*mut main::Item"), None);
        assert_eq!(kinds.type_of("other", "*mut main::Item"), None);
        assert_eq!(kinds.type_of("r", "main::Item"), None);
        let untold = "pointer or reference to main::Item";
        assert_eq!(
            kinds.type_in("main::bump", "item", untold).as_deref(),
            Some("&mut main::Item")
        );
        assert_eq!(kinds.type_in("main::other", "item", untold), None);
        assert_eq!(kinds.type_in("main::bump", "item", "&main::Item"), None);
    }

    #[test]
    fn a_pointer_type_splits_into_kind_and_target() {
        assert_eq!(split_kind("&mut main::Item"), Some(("&mut ", "main::Item")));
        assert_eq!(split_kind("&main::Item"), Some(("&", "main::Item")));
        assert_eq!(split_kind("*const u8"), Some(("*const ", "u8")));
        assert_eq!(split_kind("&&main::Item"), None);
        assert_eq!(split_kind("main::Item"), None);
    }
}
