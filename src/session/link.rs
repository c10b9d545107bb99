//! A DAP client together with the adapter behind it, so reads can ask the
//! adapter's language what its variables mean.

use std::ops::Deref;

use super::shapes::ElementShapes;
use crate::adapters::{AdapterRef, Language, Quirks};
use crate::dap::DapClient;

#[derive(Clone)]
pub struct Link {
    client: DapClient,
    pub adapter: AdapterRef,
    /// What this adapter showed of collections' elements, for previews.
    pub shapes: ElementShapes,
}

impl Link {
    pub fn new(client: DapClient, adapter: AdapterRef) -> Self {
        Link {
            client,
            adapter,
            shapes: ElementShapes::default(),
        }
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
}

impl Deref for Link {
    type Target = DapClient;
    fn deref(&self) -> &DapClient {
        &self.client
    }
}
