//! js-debug's values, as recorded from a real session, through the
//! JavaScript language's rewrite and the viewport's renderer: what the
//! agent and the person read.

use pairdbg::adapters::for_language;
use pairdbg::session::types::Var;
use pairdbg::viewport::ViewportConfig;
use pairdbg::viewport::value::render;

fn shown(value: &str, type_name: &str) -> String {
    let js = for_language("javascript").expect("js-debug is registered");
    let var = Var {
        name: "v".into(),
        value: js.language().value_text(value.into(), type_name),
        type_name: js.language().type_text(type_name.into()),
        reference: 0,
        evaluate_name: None,
        children: None,
        truncated: false,
        length: None,
        hidden: false,
        composed: false,
        indexed: None,
        not_read: None,
        language: pairdbg::adapters::value::LanguageOf(Some(js.language())),
    };
    render(&var, &ViewportConfig::default(), 0)
}

#[test]
fn recorded_values_render_by_the_viewport_rules() {
    assert_eq!(shown("'spike'", "string"), "\"spike\"");
    assert_eq!(shown("(3) [1, 2, 3]", "Array"), "[1, 2, 3]");
    // A plain object is an object with fields, as every language's are.
    assert_eq!(
        shown("{name: 'spike', n: 3}", "Object"),
        "<Object: name=\"spike\", n=3>"
    );
    assert_eq!(
        shown("Map(1) {'apples' => 3}", "Map"),
        "Map(1) {\"apples\" => 3}"
    );
    assert_eq!(shown("undefined", "undefined"), "undefined");
    assert_eq!(shown("null", "object"), "null");
    assert_eq!(shown("3", "number"), "3");
    // An array says its count when it shows less than all of it.
    assert_eq!(shown("(0) []", "Array"), "[]");
    assert_eq!(
        shown("(7) [1, 2, 3, 4, 5, 6, 7]", "Array"),
        "[1, 2, 3, 4, 5, ...] (7 items)"
    );
}
