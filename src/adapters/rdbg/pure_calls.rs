//! Ruby's methods that read without changing anything, which run without
//! `allow_side_effects`. In Ruby a method call needs no parentheses
//! (`items.first`), so every `.name` is a call: one not listed here, or
//! any ending in `!` by Ruby's convention for a mutating method, changes
//! the program as far as we can tell.

use crate::adapters::side_effects::Rules;

pub const PURE_METHODS: &[&str] = &[
    "length", "size", "count", "empty?", "any?", "none?", "first", "last", "keys", "values",
    "key?", "has_key?", "value?", "include?", "member?", "nil?", "is_a?", "kind_of?",
    "instance_of?", "respond_to?", "to_s", "to_i", "to_f", "to_a", "to_h", "to_sym", "inspect",
    "class", "fetch", "dig", "min", "max", "sum", "sort", "reverse", "upcase", "downcase",
    "strip", "start_with?", "end_with?", "zero?", "positive?", "negative?", "even?", "odd?",
    "abs", "round", "floor", "ceil", "frozen?", "equal?", "eql?", "hash", "object_id",
    "instance_variables", "instance_variable_get", "at", "slice", "values_at", "uniq",
    "compact", "flatten", "join", "index", "to_str", "chars", "bytes", "encoding",
];

/// For the scan after `.name` calls are judged: the pure methods as the
/// scan sees them, their `?` dropped.
pub const RUBY: Rules = Rules {
    pure_calls: &["defined", "Integer", "Float", "String", "Array"],
    pure_methods: &[
        "length", "size", "count", "empty", "any", "none", "first", "last", "keys", "values",
        "key", "has_key", "value", "include", "member", "nil", "is_a", "kind_of", "instance_of",
        "respond_to", "to_s", "to_i", "to_f", "to_a", "to_h", "to_sym", "inspect", "class",
        "fetch", "dig", "min", "max", "sum", "sort", "reverse", "upcase", "downcase", "strip",
        "start_with", "end_with", "zero", "positive", "negative", "even", "odd", "abs", "round",
        "floor", "ceil", "frozen", "equal", "eql", "hash", "object_id", "instance_variables",
        "instance_variable_get", "at", "slice", "values_at", "uniq", "compact", "flatten", "join",
        "index", "to_str", "chars", "bytes", "encoding",
    ],
    not_calls: &["if", "unless", "while", "and", "or", "not", "return"],
    statements: &[
        "def", "class", "module", "require", "load", "eval", "system", "exec", "exit", "raise",
        "puts", "print", "undef", "alias", "yield",
    ],
    increments: false,
    channels: false,
    quotes: &['"', '\''],
    format_strings: false,
    macros_and_casts: false,
};
