//! Exception breakpoints that leave subtypes out, on adapters that always
//! match subtypes: a stop only such a breakpoint explains, at an exception
//! of another type, is resumed before anyone sees it.

use super::Engine;
use crate::adapters::ExceptionOptionsQuirk;
use crate::session::types::StopInfo;

impl Engine {
    /// The adapter's exception options when a stop for `reason` may yet be
    /// resumed unseen, before its type is read: only exact-type breakpoints
    /// are on, and no filter that breaks at every raise.
    pub(super) fn may_pass_exception(&self, reason: &str) -> Option<ExceptionOptionsQuirk> {
        let q = self.config.adapter.quirks().exception_options?;
        let mut types = self.snap.exception_types.iter().filter(|t| t.enabled);
        let exact_only = types.clone().next().is_some() && types.all(|t| !t.include_subtypes);
        let filter_always = self.snap.exception_filters.iter().any(|f| {
            q.filter_modes
                .iter()
                .find(|(name, _)| name == f)
                .is_none_or(|(_, mode)| *mode == "always")
        });
        (reason == "exception" && !q.exact_types && exact_only && !filter_always).then_some(q)
    }

    /// Whether this fresh stop is at an exception that only exact-type
    /// breakpoints of other types could have caused.
    pub(super) fn unwanted_exception(&self, stop: &StopInfo) -> bool {
        let Some(q) = self.may_pass_exception(&stop.reason) else {
            return false;
        };
        let Some(x) = &stop.exception else {
            return false;
        };
        // A filter that breaks only when uncaught explains any stop not
        // known to be where the exception was raised.
        if x.first_chance != Some(true)
            && self
                .snap
                .exception_filters
                .iter()
                .any(|f| q.filter_modes.iter().any(|(name, _)| name == f))
        {
            return false;
        }
        let language = self.config.adapter.language();
        let shown = x.qualified_type.as_deref().unwrap_or(&x.type_name);
        !self
            .snap
            .exception_types
            .iter()
            .filter(|t| t.enabled)
            .any(|t| language.same_exception_type(&t.exception_type, shown))
    }
}
