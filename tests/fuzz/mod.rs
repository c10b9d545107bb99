//! A fuzzing harness on stable Rust: each target is a `fn(&[u8])` that
//! must not panic, hang or grow memory without bound, fed its corpus
//! (fuzz/corpus/<target>/) and then mutations of it.

pub mod corpus;
pub mod mutate;
pub mod runner;

mod codec;
mod configs;
mod draw;
mod engine;
mod envelope;
mod live_tools;
mod mcp_args;
mod rest_bodies;
mod schema_args;
mod values;
mod workspace;

pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]),
    /// Mutations are cut to this length.
    pub max_len: usize,
    /// This target's share of a run's inputs, against the cheapest ones'
    /// 100: those that start sessions cost far more per input.
    pub weight: u64,
}

pub fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "dap_codec",
            run: codec::run,
            max_len: 1 << 20,
            weight: 100,
        },
        Target {
            name: "dap_envelope",
            run: envelope::run,
            max_len: 1 << 20,
            weight: 100,
        },
        Target {
            name: "adapter_messages",
            run: engine::run,
            max_len: 1 << 20,
            weight: 5,
        },
        Target {
            name: "mcp_arguments",
            run: mcp_args::run,
            max_len: 1 << 18,
            weight: 10,
        },
        Target {
            name: "mcp_live",
            run: live_tools::run,
            max_len: 1 << 16,
            weight: 25,
        },
        Target {
            name: "rest_bodies",
            run: rest_bodies::run,
            max_len: 1 << 18,
            weight: 10,
        },
        Target {
            name: "values",
            run: values::run,
            max_len: 1 << 18,
            weight: 30,
        },
        Target {
            name: "config_files",
            run: configs::run,
            max_len: 1 << 18,
            weight: 50,
        },
    ]
}
