//! MCP over stdio with JSON-RPC's answers to bad input. The SDK drops a line
//! that is not JSON, and a line past its length limit, without a word; an
//! agent whose call then never answers cannot tell a typo from a hang. Here
//! every such line gets an error response (-32700 for a line that is not
//! JSON, -32600 for one too long to read) and the server reads on.
//!
//! The guard sits between the real stdin/stdout and the SDK: good lines are
//! passed through unchanged, and the SDK's output and our error responses
//! share one writer so that lines never interleave.

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream};
use tokio::sync::mpsc;

/// Just under the SDK's own limit, so a long line is ours to refuse.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024 - 1;

/// The (read, write) pair to serve MCP on, guarding the process's stdio.
pub fn stdio() -> (DuplexStream, DuplexStream) {
    guard(tokio::io::stdin(), tokio::io::stdout())
}

/// Guards `input` and `output` and returns the pair the SDK reads and
/// writes.
pub fn guard<R, W>(input: R, output: W) -> (DuplexStream, DuplexStream)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (sdk_in, to_sdk) = tokio::io::duplex(64 * 1024);
    let (sdk_out, from_sdk) = tokio::io::duplex(64 * 1024);
    let (errors_tx, errors_rx) = mpsc::unbounded_channel();
    tokio::spawn(read_input(input, to_sdk, errors_tx));
    tokio::spawn(write_output(from_sdk, errors_rx, output));
    (sdk_in, sdk_out)
}

async fn read_input<R: AsyncRead + Unpin>(
    input: R,
    mut to_sdk: DuplexStream,
    errors: mpsc::UnboundedSender<Vec<u8>>,
) {
    let mut input = BufReader::new(input);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_bounded_line(&mut input, &mut line).await {
            Ok(Line::Eof) => return,
            Ok(Line::TooLong(n)) => {
                let _ = errors.send(error_line(
                    -32600,
                    &format!(
                        "Invalid Request: the message is more than {n} bytes; the limit is {MAX_MESSAGE_BYTES}"
                    ),
                ));
            }
            Ok(Line::Whole) => {
                if let Some(refusal) = refusal(&line) {
                    let _ = errors.send(refusal);
                    continue;
                }
                if to_sdk.write_all(&line).await.is_err() {
                    return;
                }
            }
            Err(e) => {
                tracing::warn!("reading stdin failed: {e}");
                return;
            }
        }
    }
}

enum Line {
    Whole,
    /// Longer than the limit (at least this many bytes), and skipped.
    TooLong(usize),
    Eof,
}

/// Reads one line, newline included, into `line` without ever holding more
/// than the limit; a longer line is read through and dropped.
async fn read_bounded_line<R: AsyncRead + Unpin>(
    input: &mut BufReader<R>,
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    let mut skipped = 0usize;
    loop {
        let available = input.fill_buf().await?;
        if available.is_empty() {
            // A last line without a newline is still a message.
            return Ok(match (skipped, line.is_empty()) {
                (0, true) => Line::Eof,
                (0, false) => {
                    line.push(b'\n');
                    Line::Whole
                }
                (n, _) => Line::TooLong(n),
            });
        }
        let (take, done) = match available.iter().position(|b| *b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        if skipped > 0 || line.len() + take > MAX_MESSAGE_BYTES + 1 {
            skipped += line.len() + take;
            line.clear();
        } else {
            line.extend_from_slice(&available[..take]);
        }
        input.consume(take);
        if done {
            return Ok(if skipped > 0 {
                Line::TooLong(skipped)
            } else {
                Line::Whole
            });
        }
    }
}

/// The error response for a line that is not JSON, if it is not.
fn refusal(line: &[u8]) -> Option<Vec<u8>> {
    let text = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if text.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let text = match std::str::from_utf8(text) {
        Ok(t) => t,
        Err(e) => return Some(error_line(-32700, &format!("Parse error: not UTF-8 ({e})"))),
    };
    // Parsed whole, not skimmed: skipping a string checks neither its
    // escapes nor its surrogates, which the SDK's own parse then rejects.
    let Err(e) = serde_json::from_str::<serde_json::Value>(text) else {
        return None;
    };
    let message = if e.to_string().starts_with("recursion limit exceeded") {
        format!("Parse error: the message nests deeper than {MAX_NESTING} levels ({e})")
    } else {
        format!("Parse error: {e}")
    };
    Some(answer_line(request_id(text), -32700, &message))
}

/// serde_json's limit on nesting, which the SDK's parse has too.
const MAX_NESTING: usize = 128;

/// The id of a request that is JSON but cannot be read whole (nested past
/// the parser's limit): its caller waits for an answer with that id.
/// Fields besides `id` are skipped, which takes no nesting limit.
fn request_id(text: &str) -> serde_json::Value {
    #[derive(serde::Deserialize)]
    struct WithId {
        id: Option<serde_json::Value>,
    }
    serde_json::from_str::<WithId>(text)
        .ok()
        .and_then(|w| w.id)
        .filter(|id| id.is_string() || id.is_number())
        .unwrap_or(serde_json::Value::Null)
}

fn error_line(code: i64, message: &str) -> Vec<u8> {
    answer_line(serde_json::Value::Null, code, message)
}

fn answer_line(id: serde_json::Value, code: i64, message: &str) -> Vec<u8> {
    let mut out = serde_json::to_vec(&json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    }))
    .unwrap_or_default();
    out.push(b'\n');
    out
}

async fn write_output<W: AsyncWrite + Unpin>(
    from_sdk: DuplexStream,
    mut errors: mpsc::UnboundedReceiver<Vec<u8>>,
    mut output: W,
) {
    let mut from_sdk = BufReader::new(from_sdk);
    let mut line = Vec::new();
    let mut sdk_open = true;
    loop {
        tokio::select! {
            read = from_sdk.read_until(b'\n', &mut line), if sdk_open => match read {
                Ok(0) | Err(_) => sdk_open = false,
                Ok(_) => {
                    if output.write_all(&line).await.is_err() || output.flush().await.is_err() {
                        return;
                    }
                    line.clear();
                }
            },
            Some(e) = errors.recv() => {
                if output.write_all(&e).await.is_err() || output.flush().await.is_err() {
                    return;
                }
            }
            else => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// Feeds `input` through the guard; returns what the SDK would read and
    /// what the client reads back.
    async fn through(input: Vec<u8>) -> (String, String) {
        let (client_out, guard_in) = tokio::io::duplex(1 << 20);
        let (guard_out, mut client_in) = tokio::io::duplex(1 << 20);
        let (mut sdk_in, sdk_out) = guard(guard_in, guard_out);
        let mut client_out = client_out;
        let writer = tokio::spawn(async move {
            client_out.write_all(&input).await.unwrap();
            drop(client_out);
        });
        let mut to_sdk = String::new();
        sdk_in.read_to_string(&mut to_sdk).await.unwrap();
        writer.await.unwrap();
        drop(sdk_out);
        let mut back = String::new();
        client_in.read_to_string(&mut back).await.unwrap();
        (to_sdk, back)
    }

    #[tokio::test]
    async fn bad_lines_get_a_parse_error_and_good_ones_pass() {
        let good = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
        let mut deep = "[".repeat(200);
        deep.push_str(&"]".repeat(200));
        let mut input = Vec::new();
        for bad in [
            b"{\"x\": NaN}".to_vec(),
            br#"{"s": "\ud800"}"#.to_vec(),
            b"{\"s\": \"\xff\xfe\"}".to_vec(),
            deep.into_bytes(),
            b"garbage".to_vec(),
        ] {
            input.extend(bad);
            input.push(b'\n');
        }
        input.extend(good.as_bytes());
        input.push(b'\n');
        let (to_sdk, back) = through(input).await;
        assert_eq!(to_sdk.trim(), good);
        let answers: Vec<serde_json::Value> = back
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 5, "{back}");
        for a in &answers {
            assert_eq!(a["error"]["code"], -32700, "{a}");
            assert_eq!(a["id"], serde_json::Value::Null);
        }
    }

    #[tokio::test]
    async fn an_oversized_line_gets_an_error_and_the_next_is_read() {
        let good = r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
        let mut input = vec![b'x'; MAX_MESSAGE_BYTES + 10];
        input.push(b'\n');
        input.extend(good.as_bytes());
        input.push(b'\n');
        let (to_sdk, back) = through(input).await;
        assert_eq!(to_sdk.trim(), good);
        let a: serde_json::Value = serde_json::from_str(back.trim()).unwrap();
        assert_eq!(a["error"]["code"], -32600, "{a}");
        assert!(
            a["error"]["message"]
                .as_str()
                .unwrap()
                .contains(&MAX_MESSAGE_BYTES.to_string())
        );
    }
}
