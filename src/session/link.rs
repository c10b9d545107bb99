//! A DAP client together with the adapter behind it, so reads can ask the
//! adapter's language what its variables mean.

use std::ops::Deref;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::Value;

use super::shapes::ElementShapes;
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
    /// Whether the adapter said `supportsCancelRequest` at `initialize`.
    cancels: Arc<AtomicBool>,
    /// Set once a scope read missed its deadline: from then on each stop
    /// sends the language's locals listing ahead of the scope. Not before:
    /// debugpy sometimes holds the scope's answer some 200 ms behind it.
    listing_armed: Arc<AtomicBool>,
}

impl Link {
    pub fn new(client: DapClient, adapter: AdapterRef) -> Self {
        Link {
            client,
            adapter,
            shapes: ElementShapes::default(),
            cancels: Arc::new(AtomicBool::new(false)),
            listing_armed: Arc::new(AtomicBool::new(false)),
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
        let deadline = READ_DEADLINE.min(self.client.timeout());
        let cancels = self.cancels.load(Ordering::Relaxed);
        self.client
            .request_or_cancel(command, arguments, deadline, cancels)
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
