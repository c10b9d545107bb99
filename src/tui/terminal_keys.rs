//! What a key sends to a terminal program: the bytes a terminal emulator
//! would write for it (xterm's sequences for the cursor keys).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The bytes for `k`, or None for keys a terminal sends nothing for.
pub fn key_bytes(k: &KeyEvent) -> Option<String> {
    let ctrl = k.modifiers.contains(KeyModifiers::CONTROL);
    Some(match k.code {
        // Ctrl-A is 1 … Ctrl-Z is 26: Ctrl-C interrupts, Ctrl-D ends input.
        KeyCode::Char(c) if ctrl && c.is_ascii_alphabetic() => {
            ((c.to_ascii_lowercase() as u8 - b'a' + 1) as char).to_string()
        }
        KeyCode::Char(c) => c.to_string(),
        // A terminal sends a carriage return; the line discipline makes it
        // the newline the program reads.
        KeyCode::Enter => "\r".into(),
        KeyCode::Backspace => "\x7f".into(),
        KeyCode::Tab => "\t".into(),
        KeyCode::Up => "\x1b[A".into(),
        KeyCode::Down => "\x1b[B".into(),
        KeyCode::Right => "\x1b[C".into(),
        KeyCode::Left => "\x1b[D".into(),
        KeyCode::Home => "\x1b[H".into(),
        KeyCode::End => "\x1b[F".into(),
        KeyCode::Delete => "\x1b[3~".into(),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode, m: KeyModifiers) -> Option<String> {
        key_bytes(&KeyEvent::new(code, m))
    }

    #[test]
    fn keys_send_what_a_terminal_sends() {
        let none = KeyModifiers::NONE;
        assert_eq!(k(KeyCode::Char('é'), none).as_deref(), Some("é"));
        assert_eq!(k(KeyCode::Enter, none).as_deref(), Some("\r"));
        assert_eq!(
            k(KeyCode::Char('c'), KeyModifiers::CONTROL).as_deref(),
            Some("\x03")
        );
        assert_eq!(
            k(
                KeyCode::Char('D'),
                KeyModifiers::CONTROL | KeyModifiers::SHIFT
            )
            .as_deref(),
            Some("\x04")
        );
        assert_eq!(k(KeyCode::Left, none).as_deref(), Some("\x1b[D"));
        assert_eq!(k(KeyCode::F(5), none), None);
    }
}
