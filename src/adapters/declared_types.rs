//! What a program's own file declares of its variables' types, where the
//! adapter's type names say less than the program does.

use std::sync::Arc;

pub trait DeclaredTypes: Send + Sync {
    /// The type of the variable or field `name`, which the adapter calls
    /// `type_name`, as the program declares it; `None` where the file does
    /// not settle it, leaving the adapter's name to the language.
    fn type_of(&self, name: &str, type_name: &str) -> Option<String>;

    /// The type of `function`'s local `name`, shown as `type_name` once
    /// `type_of` was asked, where the function's own declarations settle
    /// what the whole program's did not.
    fn type_in(&self, _function: &str, _name: &str, _type_name: &str) -> Option<String> {
        None
    }
}

pub type DeclaredTypesRef = Arc<dyn DeclaredTypes>;

/// The last field of a plain path (`view.item` → `item`), the name a
/// declaration has; `None` for anything else (a call, an index, `&x`),
/// whose result no declaration names.
pub fn declared_name(expression: &str) -> Option<&str> {
    let last = expression.trim().rsplit('.').next()?;
    let plain = expression
        .trim()
        .split('.')
        .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'));
    (plain && !last.chars().next()?.is_ascii_digit()).then_some(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_path_names_a_declaration() {
        assert_eq!(declared_name("item"), Some("item"));
        assert_eq!(declared_name("view.item"), Some("item"));
        assert_eq!(declared_name("self.current.0"), None);
        assert_eq!(declared_name("&item"), None);
        assert_eq!(declared_name("items[1]"), None);
        assert_eq!(declared_name("f(x)"), None);
        assert_eq!(declared_name("a..b"), None);
    }
}
