//! A launch's breakpoint conditions checked before the program starts, as
//! one set later is: one that does not compile refuses the launch, naming
//! the breakpoint, rather than failing at every hit.

use super::config::LaunchConfig;
use super::error::SessionError;

/// The first condition that does not compile, as `breakpoints[i].condition`.
/// The checks run together; each costs the language's parser a start.
pub async fn check(config: &LaunchConfig) -> Result<(), SessionError> {
    let spec = config.spec();
    let checks = config.breakpoints.iter().enumerate().filter_map(|(i, b)| {
        let condition = b.condition.as_deref()?;
        let check = config.adapter.check_condition(&spec, condition)?;
        Some(async move { (i, check.await) })
    });
    for (i, result) in futures::future::join_all(checks).await {
        if let Err(message) = result {
            return Err(SessionError::invalid(
                &format!("breakpoints[{i}].condition"),
                message,
            ));
        }
    }
    Ok(())
}
