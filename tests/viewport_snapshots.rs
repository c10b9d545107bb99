//! The viewport is a pure function of a snapshot: these pin its text and
//! JSON forms for the key states.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use pairdbg::session::types::*;
use pairdbg::viewport::{Extras, ViewportConfig, render_json, render_text};

use common::fixtures::{demo_source, frame, var};

fn source() -> Arc<SourceFile> {
    Arc::new(demo_source())
}

fn user() -> Var {
    let mut u = var(
        "user",
        "__main__.User",
        "<__main__.User object at 0x7f3a>",
        9,
    );
    u.children = Some(vec![
        var("special variables", "", "", 10),
        var("id", "int", "482", 0),
        var("tier", "str", "'gold'", 0),
    ]);
    u
}

fn stopped(reason: &str, line: u64, locals: Vec<Var>) -> Snapshot {
    let mut s = Snapshot::new(
        "s1".into(),
        "assets/demo/order.py".into(),
        PathBuf::from("/ws"),
    );
    s.epoch = 7;
    s.state = RunState::Stopped;
    s.stop_seq = 1;
    let mut frames = vec![frame(2, "process_order", line), frame(3, "main", 56)];
    for i in 0..6 {
        frames.push(frame(10 + i, &format!("layer_{i}"), 60 + i as u64));
    }
    s.stop = Some(StopInfo {
        reason: reason.into(),
        description: None,
        thread_id: 1,
        total_frames: frames.len(),
        frames,
        locals,
        locals_reference: 4,
        exception: None,
        source: Some(source()),
        files: vec![source()],
        callers: vec![],
        thread_note: None,
        hit: None,
        condition_error: None,
        process: None,
        child: None,
        connection: 0,
    });
    s
}

fn order_locals(subtotal: &str) -> Vec<Var> {
    vec![
        var("special variables", "", "", 5),
        var(
            "cart",
            "Cart",
            "Cart(items=[Item(name='keyboard', price=49.99, quantity=1), Item(name='mouse', price=19.99, quantity=2), Item(name='cable', price=9.99, quantity=3)])",
            6,
        ),
        var(
            "item",
            "Item",
            "Item(name='cable', price=9.99, quantity=3)",
            7,
        ),
        var("subtotal", "float", subtotal, 0),
        var("tax_rate", "float", "0.08", 0),
        user(),
        var("codes", "list", "[3, 1, 4, 1, 5, 9, 2, 6]", 8),
        var("rates", "dict", "{'gold': 0.1, 'silver': 0.05}", 11),
        var("note", "str", &format!("'{}'", "long text ".repeat(40)), 0),
        var("flag", "bool", "True", 0),
        var("nothing", "NoneType", "None", 0),
    ]
}

fn with_watches(mut s: Snapshot) -> Snapshot {
    s.watches = vec![
        WatchValue {
            expression: "len(cart.items)".into(),
            origin: Origin::Agent,
            value: Ok(var("len(cart.items)", "int", "3", 0)),
        },
        WatchValue {
            expression: "total > 0".into(),
            origin: Origin::Human,
            value: Ok(var("total > 0", "bool", "True", 0)),
        },
        WatchValue {
            expression: "missing".into(),
            origin: Origin::Agent,
            value: Err("NameError: name 'missing' is not defined".into()),
        },
    ];
    s
}

#[test]
fn stopped_at_a_breakpoint() {
    let s = with_watches(stopped("breakpoint", 44, order_locals("119.94")));
    insta::assert_snapshot!(render_text(
        &s,
        &ViewportConfig::default(),
        Extras::default()
    ));
}

#[test]
fn stopped_at_an_exception() {
    let mut s = stopped("exception", 36, vec![var("rate", "float", "0.1", 0)]);
    if let Some(st) = s.stop.as_mut() {
        st.exception = Some(ExceptionDetails {
            type_name: "ValueError".into(),
            message: "bad value at depth 0".into(),
            raised_at: None,
            qualified_type: None,
            first_chance: None,
            break_mode: None,
        });
    }
    insta::assert_snapshot!(render_text(
        &s,
        &ViewportConfig::default(),
        Extras::default()
    ));
}

#[test]
fn small_config_limits_every_section() {
    let s = with_watches(stopped("step", 44, order_locals("119.94")));
    let cfg = ViewportConfig {
        source_context_lines: 3,
        stack_depth: 2,
        locals_max_depth: 1,
        locals_max_items: 4,
        string_truncate_length: 20,
        collection_preview_items: 2,
        diff_mode: false,
        max_tokens: None,
    };
    let agents = Extras {
        more: Some(&pairdbg::mcp::names::MCP.more),
        ..Default::default()
    };
    insta::assert_snapshot!(render_text(&s, &cfg, agents));
    // Each front end names its own way to the rest, and none is named
    // where the reader has no way to ask.
    let shell = Extras {
        more: Some(&pairdbg::shell::names::CTL.more),
        ..Default::default()
    };
    assert!(render_text(&s, &cfg, shell).contains("  (6 more; use pairdbg ctl vars)\n"));
    let none = render_text(&s, &cfg, Extras::default());
    assert!(
        none.contains("  (6 more)\n") && !none.contains("debug_"),
        "{none}"
    );
}

#[test]
fn diff_mode_shows_only_changes_in_the_same_frame() {
    let before = stopped("step", 43, order_locals("69.97"));
    let after = stopped("step", 42, order_locals("89.95"));
    let cfg = ViewportConfig {
        diff_mode: true,
        ..Default::default()
    };
    let text = render_text(
        &after,
        &cfg,
        Extras {
            previous: before.stop.as_ref(),
            notes_after_epoch: 0,
            more: None,
        },
    );
    assert!(
        text.len() / 4 <= 150,
        "diff viewport is {} tokens",
        text.len() / 4
    );
    insta::assert_snapshot!(text);
}

#[test]
fn diff_mode_shows_everything_after_a_frame_change() {
    let mut before = stopped("step", 43, order_locals("69.97"));
    if let Some(st) = before.stop.as_mut() {
        st.frames.remove(0);
        st.total_frames -= 1;
    }
    let after = stopped("step", 42, order_locals("89.95"));
    let cfg = ViewportConfig {
        diff_mode: true,
        ..Default::default()
    };
    let text = render_text(
        &after,
        &cfg,
        Extras {
            previous: before.stop.as_ref(),
            notes_after_epoch: 0,
            more: None,
        },
    );
    assert!(
        text.starts_with("── STOPPED at assets/demo/order.py:42 (process_order) ──"),
        "{text}"
    );
}

#[test]
fn json_mode_has_the_same_content() {
    let s = with_watches(stopped("breakpoint", 44, order_locals("119.94")));
    let cfg = ViewportConfig {
        source_context_lines: 3,
        ..Default::default()
    };
    insta::assert_snapshot!(serde_json::to_string_pretty(&render_json(&s, &cfg)).unwrap());
}

#[test]
fn human_notes_appear_once() {
    let mut s = stopped("step", 44, vec![var("x", "int", "1", 0)]);
    s.notes = vec![
        Note {
            origin: Origin::Human,
            text: "old note".into(),
            epoch: 3,
        },
        Note {
            origin: Origin::Human,
            text: "check the discount sign".into(),
            epoch: 6,
        },
        Note {
            origin: Origin::Agent,
            text: "agent hypothesis".into(),
            epoch: 6,
        },
    ];
    let text = render_text(
        &s,
        &ViewportConfig::default(),
        Extras {
            previous: None,
            notes_after_epoch: 5,
            more: None,
        },
    );
    assert!(
        text.ends_with("Human notes:\n  - check the discount sign\n"),
        "{text}"
    );
    assert!(
        !text.contains("old note") && !text.contains("agent hypothesis"),
        "{text}"
    );
}

#[test]
fn other_states() {
    let mut s = Snapshot::new("s1".into(), "p.py".into(), PathBuf::from("/ws"));
    let cfg = ViewportConfig::default();
    assert_eq!(render_text(&s, &cfg, Extras::default()), "── STARTING ──\n");
    s.state = RunState::Running;
    assert_eq!(render_text(&s, &cfg, Extras::default()), "── RUNNING ──\n");
    s.state = RunState::Exited;
    s.exit = Some(ExitInfo {
        exit_code: Some(-11),
        summary: String::new(),
        ..Default::default()
    });
    assert_eq!(
        render_text(&s, &cfg, Extras::default()),
        "── EXITED with code -11 ──\n"
    );
    assert_eq!(render_json(&s, &cfg)["exit_code"], -11);
    s.exit = Some(ExitInfo::from_end(Some(
        pairdbg::adapters::ProgramEnd::Signal(9),
    )));
    assert_eq!(
        render_text(&s, &cfg, Extras::default()),
        "── EXITED, killed by SIGKILL ──\n"
    );
    assert_eq!(s.state_sentence(), "The program was killed by SIGKILL.");
    assert_eq!(render_json(&s, &cfg)["killed_by"], "SIGKILL");
    assert!(render_json(&s, &cfg)["exit_code"].is_null());
}

#[test]
fn a_typical_stop_fits_the_token_budget() {
    let s = with_watches(stopped("breakpoint", 44, order_locals("119.94")));
    let text = render_text(&s, &ViewportConfig::default(), Extras::default());
    assert!(text.len() / 4 <= 400, "{} tokens", text.len() / 4);
}

/// A stop inside `calculate_discount`: its caller's line shows the values of
/// `process_order`'s arguments, read from the caller's own locals.
fn in_calculate_discount() -> Snapshot {
    let mut s = stopped(
        "step",
        36,
        vec![
            user(),
            var("subtotal", "float", "119.94", 0),
            var("rate", "float", "0.1", 0),
        ],
    );
    let stop = s.stop.as_mut().expect("a stop");
    stop.frames.insert(0, frame(1, "calculate_discount", 36));
    stop.frames[1] = frame(2, "process_order", 44);
    stop.total_frames = stop.frames.len();
    stop.callers = vec![CallerLocals {
        frame_id: 2,
        reference: 20,
        vars: order_locals("119.94"),
    }];
    s
}

#[test]
fn caller_frames_show_their_arguments() {
    let s = in_calculate_discount();
    let cfg = ViewportConfig::default();
    let text = render_text(&s, &cfg, Extras::default());
    // Arguments render by the rules for locals.
    assert!(
        text.contains("calculate_discount(user=<User: id=482, tier=\"gold\">, subtotal=119.94)"),
        "{text}"
    );
    assert!(
        text.contains("process_order(cart=<Cart: items=[<Item>, <Item>, <Item>]>, user=<User: id=482, tier=\"gold\">, tax_rate=0.08)"),
        "the caller's arguments carry values: {text}"
    );
    insta::assert_snapshot!(text);
    let json = render_json(&s, &cfg);
    assert_eq!(json["stack"][1]["args"]["tax_rate"], "0.08", "{json:#}");
    assert_eq!(json["stack"][0]["args"]["subtotal"], "119.94", "{json:#}");
}

fn with_parts(subtotal: &str, sixth: &str) -> Vec<Var> {
    let mut locals = order_locals(subtotal);
    locals.push(var(
        "parts",
        "list",
        &format!("['1', '2', '3', '4', '5', '6', '{sixth}', '8']"),
        12,
    ));
    locals
}

#[test]
fn diff_mode_names_a_change_inside_a_container() {
    let before = stopped("step", 43, with_parts("69.97", ""));
    let after = stopped("step", 42, with_parts("69.97", "167"));
    let cfg = ViewportConfig {
        diff_mode: true,
        ..Default::default()
    };
    let text = render_text(
        &after,
        &cfg,
        Extras {
            previous: before.stop.as_ref(),
            notes_after_epoch: 0,
            more: None,
        },
    );
    // The preview shows the first five items alike; the values differ.
    assert!(text.contains("(same frame)"), "{text}");
    assert!(
        text.contains("  parts  = [\"1\", \"2\", \"3\", \"4\", \"5\", ...] (8 items)\n      parts[6]: \"\" → \"167\"\n"),
        "{text}"
    );
    assert!(text.contains("(10 locals unchanged)"), "{text}");
}

#[test]
fn diff_mode_after_a_restart_shows_everything() {
    let mut before = stopped("step", 42, order_locals("89.95"));
    let mut after = stopped("step", 42, order_locals("89.95"));
    before.stop.as_mut().unwrap().connection = 1;
    after.stop.as_mut().unwrap().connection = 2;
    let cfg = ViewportConfig {
        diff_mode: true,
        ..Default::default()
    };
    let text = render_text(
        &after,
        &cfg,
        Extras {
            previous: before.stop.as_ref(),
            notes_after_epoch: 0,
            more: None,
        },
    );
    assert!(!text.contains("(same frame)"), "{text}");
    assert!(text.contains("subtotal  = 89.95"), "{text}");
}
