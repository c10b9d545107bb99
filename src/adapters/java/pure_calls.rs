//! Java calls that cannot change the program, which run without
//! `allow_side_effects`: the class library's readers (a collection's
//! `size()`, a string's `length()`) and `Math`'s functions.

use crate::adapters::side_effects::Rules;

pub const JAVA: Rules = Rules {
    pure_calls: &[
        "Math.abs",
        "Math.max",
        "Math.min",
        "Math.round",
        "Math.floor",
        "Math.ceil",
        "Math.sqrt",
        "String.valueOf",
        "Objects.equals",
        "Objects.hash",
    ],
    pure_methods: &[
        "size",
        "isEmpty",
        "length",
        "get",
        "getKey",
        "getValue",
        "getOrDefault",
        "contains",
        "containsKey",
        "containsValue",
        "equals",
        "hashCode",
        "toString",
        "toUpperCase",
        "toLowerCase",
        "trim",
        "strip",
        "isBlank",
        "charAt",
        "substring",
        "startsWith",
        "endsWith",
        "indexOf",
        "lastIndexOf",
        "compareTo",
        "getMessage",
        "getCause",
        "getClass",
        "getName",
        "getSimpleName",
        "intValue",
        "longValue",
        "doubleValue",
        "name",
        "ordinal",
    ],
    not_calls: &["if", "while", "for", "switch", "return", "synchronized"],
    statements: &["new", "throw"],
    increments: true,
    channels: false,
    quotes: &['"', '\''],
    format_strings: false,
    macros_and_casts: false,
};

#[cfg(test)]
mod tests {
    use super::JAVA;
    use crate::adapters::side_effects::scan;

    #[test]
    fn readers_run_and_other_calls_ask_first() {
        assert_eq!(scan("orders.size() == 3 && order.total > 1", &JAVA), None);
        assert_eq!(scan("Math.max(a, b)", &JAVA), None);
        assert_eq!(
            scan("order.customerName()", &JAVA).as_deref(),
            Some("calls `customerName`")
        );
        assert!(scan("n++", &JAVA).is_some());
        assert!(scan("x = 1", &JAVA).is_some());
    }
}
