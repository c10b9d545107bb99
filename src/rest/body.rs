//! Request bodies read strictly: a wrong type or an unknown field is
//! refused with its path, never coerced.

use serde::de::DeserializeOwned;

use super::error::ApiError;

/// Parses a body; a refusal names the field (`args[2]`, `line`).
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { "body" } else { &path };
        ApiError::invalid(field, strip_position(&e.inner().to_string()))
    })?;
    de.end()
        .map_err(|e| ApiError::invalid("body", strip_position(&e.to_string())))?;
    Ok(value)
}

/// serde_json ends messages with "at line 1 column 9", which says nothing
/// to a client that sent one line.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}
