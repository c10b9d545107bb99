//! How a front end spells the reads a viewport points to for what it left
//! out: an MCP client calls a tool, a shell user types a `pairdbg ctl`
//! command. The viewport names neither; without a spelling it says only
//! how much it left out.

#[derive(Debug)]
pub struct ReadMore {
    /// Every local of the frame.
    pub locals: &'static str,
    /// The locals from the `n`th on.
    pub locals_from: fn(usize) -> String,
    /// The whole call stack.
    pub stack: &'static str,
    /// The watches' values.
    pub watches: &'static str,
    /// The source around the stop.
    pub source: &'static str,
}
