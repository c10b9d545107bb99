//! A DAP client together with the adapter behind it, so reads can ask the
//! adapter's language what its variables mean.

use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde_json::Value;

use super::shapes::ElementShapes;
use super::slow_previews::SlowPreviews;
use crate::adapters::declared_types::DeclaredTypesRef;
use crate::adapters::{AdapterRef, Language, Quirks};
use crate::dap::{DapClient, DapError};

/// How long one read at a stop (a scope, a variable's children, a watch,
/// the exceptionInfo) may take before it is shown as not read: well under
/// the session's request timeout, so one slow value never holds up the
/// stop or ends the session.
pub const READ_DEADLINE: Duration = Duration::from_millis(3_000);

#[derive(Clone)]
pub struct Link {
    client: DapClient,
    pub adapter: AdapterRef,
    /// What this adapter showed of collections' elements, for previews.
    pub shapes: ElementShapes,
    /// Locals not read for previews again, their last read having been slow.
    pub slow_previews: SlowPreviews,
    /// Whether the adapter said `supportsCancelRequest` at `initialize`.
    cancels: Arc<AtomicBool>,
    /// Set once a scope read missed its deadline: from then on each stop
    /// sends the language's locals listing ahead of the scope. Not before:
    /// debugpy sometimes holds the scope's answer some 200 ms behind it.
    listing_armed: Arc<AtomicBool>,
    /// How many times the program has been resumed.
    resumed: Arc<AtomicU64>,
    /// Set on a link made for one stop: its reads are refused once the
    /// program has moved on, since a reference then names another value
    /// (or, in debugpy, the same slow one, read again for nobody).
    pinned: Option<u64>,
    /// The program's file, for what it declares of its types.
    program: Option<Arc<std::path::PathBuf>>,
    declared: Arc<tokio::sync::OnceCell<Option<DeclaredTypesRef>>>,
}

impl Link {
    pub fn new(
        client: DapClient,
        adapter: AdapterRef,
        program: Option<std::path::PathBuf>,
    ) -> Self {
        Link {
            program: program.map(Arc::new),
            declared: Arc::default(),
            client,
            adapter,
            shapes: ElementShapes::default(),
            slow_previews: SlowPreviews::default(),
            cancels: Arc::new(AtomicBool::new(false)),
            listing_armed: Arc::new(AtomicBool::new(false)),
            resumed: Arc::new(AtomicU64::new(0)),
            pinned: None,
        }
    }

    /// The program was resumed: reads of links pinned before are refused.
    pub fn note_resumed(&self) {
        self.resumed.fetch_add(1, Ordering::Relaxed);
    }

    /// This link, its reads refused once the program moves on.
    pub fn pinned_to_stop(&self) -> Link {
        Link {
            pinned: Some(self.resumed.load(Ordering::Relaxed)),
            ..self.clone()
        }
    }

    /// Whether stops send the locals listing ahead of the scope.
    pub fn listing_armed(&self) -> bool {
        self.listing_armed.load(Ordering::Relaxed)
    }

    /// A scope read missed its deadline: list locals ahead from now on.
    pub fn arm_listing(&self) {
        self.listing_armed.store(true, Ordering::Relaxed);
    }

    pub fn language(&self) -> &'static dyn Language {
        self.adapter.language()
    }

    pub fn quirks(&self) -> &'static Quirks {
        self.adapter.quirks()
    }

    /// What the program's file declares of its types, read once per link
    /// off the runtime (a Rust program's DWARF takes milliseconds).
    pub async fn declared_types(&self) -> Option<DeclaredTypesRef> {
        let (adapter, program) = (self.adapter, self.program.clone());
        self.declared
            .get_or_init(|| async move {
                let program = program?;
                tokio::task::spawn_blocking(move || adapter.declared_types(&program))
                    .await
                    .ok()
                    .flatten()
            })
            .await
            .clone()
    }

    /// The declared types once read, without waiting for them.
    pub fn declared_types_read(&self) -> Option<DeclaredTypesRef> {
        self.declared.get().cloned().flatten()
    }

    pub fn client(&self) -> &DapClient {
        &self.client
    }

    /// Records the adapter's capabilities that reads depend on.
    pub fn set_capabilities(&self, capabilities: &Value) {
        let cancels = capabilities
            .get("supportsCancelRequest")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        self.cancels.store(cancels, Ordering::Relaxed);
    }

    /// A read at a stop: sent now, given up after `READ_DEADLINE`, and then
    /// cancelled where the adapter can cancel.
    pub fn read(
        &self,
        command: &str,
        arguments: Option<Value>,
    ) -> impl Future<Output = Result<Value, DapError>> + Send + 'static {
        if self
            .pinned
            .is_some_and(|at| at != self.resumed.load(Ordering::Relaxed))
        {
            let moved = DapError::Failed {
                command: command.to_string(),
                message: "the program moved on before it was read".into(),
            };
            return futures::future::Either::Left(futures::future::ready(Err(moved)));
        }
        let deadline = READ_DEADLINE.min(self.client.timeout());
        let cancels = self.cancels.load(Ordering::Relaxed);
        futures::future::Either::Right(
            self.client
                .request_or_cancel(command, arguments, deadline, cancels),
        )
    }
}

/// What a read that failed shows instead of its value; `None` when the
/// adapter is gone, which no single value can stand for.
pub fn not_read_reason(err: &DapError) -> Option<String> {
    match err {
        DapError::Closed => None,
        DapError::Timeout { timeout_ms, .. } => {
            Some(format!("the adapter took longer than {timeout_ms} ms"))
        }
        other => Some(other.to_string()),
    }
}

impl Deref for Link {
    type Target = DapClient;
    fn deref(&self) -> &DapClient {
        &self.client
    }
}
