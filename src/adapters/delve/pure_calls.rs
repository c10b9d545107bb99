//! Go's calls that cannot change the program, which run without
//! `allow_side_effects`: the built-ins that read and the conversions.

use crate::adapters::side_effects::Rules;

pub const GO: Rules = Rules {
    pure_calls: &[
        "len", "cap", "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16",
        "uint32", "uint64", "uintptr", "float32", "float64", "string", "byte", "rune", "bool",
        "complex", "real", "imag",
    ],
    pure_methods: &[],
    not_calls: &["func"],
    statements: &["go", "defer"],
    increments: true,
    channels: true,
    quotes: &['"', '\'', '`'],
    format_strings: false,
    macros_and_casts: false,
};

#[cfg(test)]
mod tests {
    use super::GO;
    use crate::adapters::side_effects::scan;

    #[test]
    fn calls_channels_and_assignments_change_the_program() {
        assert_eq!(
            scan("<-ch", &GO).as_deref(),
            Some("uses the channel operator `<-`")
        );
        assert_eq!(scan("x := 1", &GO).as_deref(), Some("assigns with `:=`"));
        assert_eq!(scan("twice(2)", &GO).as_deref(), Some("calls `twice`"));
        assert_eq!(scan("c.Area()", &GO).as_deref(), Some("calls `Area`"));
    }

    #[test]
    fn built_ins_read() {
        assert_eq!(scan("len(s) == cap(s)", &GO), None);
        assert_eq!(scan("`f()`", &GO), None);
        assert_eq!(scan("float64(n) / 2", &GO), None);
    }
}
