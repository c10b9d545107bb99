//! Exception breakpoints that leave subtypes out, on adapters that always
//! match subtypes: a stop only such a breakpoint explains, at an exception
//! of another type, is resumed before anyone sees it.

use super::Engine;
use crate::session::types::StopInfo;

impl Engine {
    /// Whether this fresh stop is at an exception that only exact-type
    /// breakpoints of other types could have caused.
    pub(super) fn unwanted_exception(&self, stop: &StopInfo) -> bool {
        let Some(x) = stop
            .exception
            .as_ref()
            .filter(|_| stop.reason == "exception")
        else {
            return false;
        };
        let Some(q) = self.config.adapter.quirks().exception_options else {
            return false;
        };
        if q.exact_types {
            return false;
        }
        let types: Vec<_> = self
            .snap
            .exception_types
            .iter()
            .filter(|t| t.enabled)
            .collect();
        if types.is_empty() || types.iter().any(|t| t.include_subtypes) {
            return false;
        }
        // An unknown break mode could be any filter's: the stop stands.
        let first_chance = x.first_chance;
        let filter_explains = self.snap.exception_filters.iter().any(|f| {
            match q.filter_modes.iter().find(|(name, _)| name == f) {
                Some((_, "always")) => true,
                Some(_) => first_chance != Some(true),
                None => true,
            }
        });
        if filter_explains {
            return false;
        }
        let language = self.config.adapter.language();
        let shown = x.qualified_type.as_deref().unwrap_or(&x.type_name);
        !types
            .iter()
            .any(|t| language.same_exception_type(&t.exception_type, shown))
    }
}
