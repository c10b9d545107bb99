//! A scripted debug adapter over an in-memory pipe, for protocol edge
//! cases and faults a real adapter will not play on demand: the session
//! connects to it as to any adapter, and `run` plays the adapter's side.

use std::future::Future;

use pairdbg::dap::codec::frame;
use pairdbg::session::SessionError;
use pairdbg::session::connector::{Connector, Spawned, Transport};
use serde_json::{Value, json};
use tokio::io::DuplexStream;

pub struct Scripted<F> {
    /// The request that starts the program (`launch` or `attach`) and its arguments.
    pub start: (&'static str, Value),
    /// Plays the adapter on its end of the pipe.
    pub run: F,
}

impl<F, Fut> Connector for Scripted<F>
where
    F: Fn(DuplexStream) -> Fut + Send + Sync,
    Fut: Future<Output = ()> + Send + 'static,
{
    fn connect(&self, _config: &pairdbg::session::LaunchConfig) -> Result<Spawned, SessionError> {
        let (ours, theirs) = tokio::io::duplex(1024 * 1024);
        let (r, w) = tokio::io::split(ours);
        tokio::spawn((self.run)(theirs));
        Ok(Spawned {
            process: None,
            transport: Transport::Stdio {
                reader: Box::pin(r),
                writer: Box::pin(w),
            },
            program_output: None,
            on_terminal: false,
            start: self.start.clone(),
            exit_code_file: None,
            notes: vec![],
        })
    }
}

/// Numbers the adapter's messages in order and frames them for the wire.
#[derive(Default)]
pub struct Outbox {
    seq: u64,
}

impl Outbox {
    pub fn frame(&mut self, mut msg: Value) -> Vec<u8> {
        self.seq += 1;
        msg["seq"] = json!(self.seq);
        frame(msg.to_string().as_bytes())
    }
}
