//! gdb names every Rust pointer `*mut T`: a `&T`, a `&mut T` and a
//! `*const T` too, since its DWARF reader drops the name rustc gives the
//! pointer's type. Where nothing else tells the kind, the type says it is
//! a pointer of a kind not read, never a kind it may not be.

/// A pointer whose kind (`&`, `&mut`, `*const`, `*mut`) was not read.
pub const UNTOLD: &str = "pointer or reference to ";

/// gdb's `*mut T` as a type that claims no kind.
pub fn type_text(type_name: String) -> String {
    match type_name.strip_prefix("*mut ") {
        Some(target) => format!("{UNTOLD}{target}"),
        None => type_name,
    }
}

/// The type a pointer of any kind points at, as gdb or `type_text` names it.
pub fn target(type_name: &str) -> Option<&str> {
    type_name
        .strip_prefix("*mut ")
        .or_else(|| type_name.strip_prefix("*const "))
        .or_else(|| type_name.strip_prefix(UNTOLD))
}

/// The target of a pointer whose kind `type_text` could not tell.
pub fn untold_target(type_name: &str) -> Option<&str> {
    type_name.strip_prefix(UNTOLD)
}

/// A reference or a pointer, however its type is named.
pub fn is_pointer(type_name: &str) -> bool {
    type_name.starts_with('&') || type_name.starts_with('*') || type_name.starts_with(UNTOLD)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pointer_of_untold_kind_claims_none() {
        assert_eq!(
            type_text("*mut rsref::Item".into()),
            "pointer or reference to rsref::Item"
        );
        assert_eq!(type_text("&str".into()), "&str");
        assert_eq!(type_text("struct item *".into()), "struct item *");
        assert_eq!(
            target("pointer or reference to rsref::Item"),
            Some("rsref::Item")
        );
        assert_eq!(target("*mut u8"), Some("u8"));
        assert!(is_pointer("pointer or reference to u8"));
        assert!(is_pointer("&u8"));
        assert!(!is_pointer("u8"));
    }
}
