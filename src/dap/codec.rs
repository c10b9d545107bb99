//! Content-Length framing for the Debug Adapter Protocol base protocol.

use bytes::{Buf, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

/// Largest header block we accept before giving up on finding `\r\n\r\n`.
pub const MAX_HEADER_BYTES: usize = 8 * 1024;
/// Largest body we accept. Adapters send big variable pages, but never this.
pub const MAX_BODY_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum CodecError {
    #[error("DAP header is longer than {MAX_HEADER_BYTES} bytes without a blank line")]
    HeaderTooLong,
    #[error("DAP header is not valid UTF-8")]
    HeaderNotUtf8,
    #[error("DAP header has no Content-Length field: {0:?}")]
    MissingContentLength(String),
    #[error("DAP Content-Length {0:?} is not a number")]
    BadContentLength(String),
    #[error("DAP Content-Length {0} exceeds the limit of {MAX_BODY_BYTES} bytes")]
    BodyTooLarge(usize),
    #[error("I/O error on the adapter stream: {0}")]
    Io(#[from] std::io::Error),
}

/// Decodes frames into raw body bytes; JSON parsing happens one layer up so a
/// malformed body does not poison the stream's framing.
#[derive(Debug, Default)]
pub struct DapCodec {
    pending_len: Option<usize>,
}

impl Decoder for DapCodec {
    type Item = BytesMut;
    type Error = CodecError;

    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>, CodecError> {
        if self.pending_len.is_none() {
            let Some(end) = find_header_end(src) else {
                // The blank line's first three bytes may already be here: a
                // header the limit allows must not be refused for where a
                // read happened to end.
                if src.len() > MAX_HEADER_BYTES + 3 {
                    return Err(CodecError::HeaderTooLong);
                }
                return Ok(None);
            };
            if end > MAX_HEADER_BYTES {
                return Err(CodecError::HeaderTooLong);
            }
            let header = std::str::from_utf8(&src[..end]).map_err(|_| CodecError::HeaderNotUtf8)?;
            let len = parse_content_length(header)?;
            src.advance(end + 4);
            self.pending_len = Some(len);
        }
        let len = self.pending_len.unwrap_or_default();
        if src.len() < len {
            src.reserve(len - src.len());
            return Ok(None);
        }
        self.pending_len = None;
        Ok(Some(src.split_to(len)))
    }
}

impl Encoder<&[u8]> for DapCodec {
    type Error = CodecError;

    fn encode(&mut self, body: &[u8], dst: &mut BytesMut) -> Result<(), CodecError> {
        dst.extend_from_slice(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes());
        dst.extend_from_slice(body);
        Ok(())
    }
}

fn find_header_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n")
}

fn parse_content_length(header: &str) -> Result<usize, CodecError> {
    for line in header.split("\r\n") {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            let len: usize = value
                .parse()
                .map_err(|_| CodecError::BadContentLength(value.to_string()))?;
            if len > MAX_BODY_BYTES {
                return Err(CodecError::BodyTooLarge(len));
            }
            return Ok(len);
        }
    }
    Err(CodecError::MissingContentLength(header.to_string()))
}

/// Frames one body for writing.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_all(codec: &mut DapCodec, buf: &mut BytesMut) -> Vec<String> {
        let mut out = vec![];
        while let Some(f) = codec.decode(buf).unwrap() {
            out.push(String::from_utf8(f.to_vec()).unwrap());
        }
        out
    }

    #[test]
    fn several_messages_in_one_read() {
        let mut buf = BytesMut::new();
        buf.extend_from_slice(&frame(br#"{"a":1}"#));
        buf.extend_from_slice(&frame(br#"{"b":2}"#));
        let mut c = DapCodec::default();
        assert_eq!(
            decode_all(&mut c, &mut buf),
            vec![r#"{"a":1}"#, r#"{"b":2}"#]
        );
        assert!(buf.is_empty());
    }

    #[test]
    fn partial_reads_byte_by_byte() {
        let bytes = [frame(br#"{"seq":1}"#), frame("{\"s\":\"é\"}".as_bytes())].concat();
        let mut c = DapCodec::default();
        let mut buf = BytesMut::new();
        let mut got = vec![];
        for b in bytes {
            buf.extend_from_slice(&[b]);
            got.extend(decode_all(&mut c, &mut buf));
        }
        assert_eq!(
            got,
            vec![r#"{"seq":1}"#.to_string(), "{\"s\":\"é\"}".to_string()]
        );
    }

    #[test]
    fn extra_headers_are_ignored() {
        let mut buf = BytesMut::from(&b"Content-Type: x\r\ncontent-length: 2\r\n\r\n{}"[..]);
        assert_eq!(decode_all(&mut DapCodec::default(), &mut buf), vec!["{}"]);
    }

    #[test]
    fn oversized_header_is_an_error() {
        let mut buf = BytesMut::from(vec![b'x'; MAX_HEADER_BYTES + 4].as_slice());
        let err = DapCodec::default().decode(&mut buf).unwrap_err();
        assert!(matches!(err, CodecError::HeaderTooLong));
    }

    #[test]
    fn a_header_at_the_limit_frames_however_it_is_read() {
        let header = format!(
            "X-Pad: {}\r\nContent-Length: 2",
            "a".repeat(MAX_HEADER_BYTES - 26)
        );
        assert_eq!(header.len(), MAX_HEADER_BYTES);
        let bytes = format!("{header}\r\n\r\n{{}}").into_bytes();
        for cut in [
            MAX_HEADER_BYTES + 1,
            MAX_HEADER_BYTES + 2,
            MAX_HEADER_BYTES + 3,
        ] {
            let mut c = DapCodec::default();
            let mut buf = BytesMut::from(&bytes[..cut]);
            assert!(decode_all(&mut c, &mut buf).is_empty());
            buf.extend_from_slice(&bytes[cut..]);
            assert_eq!(decode_all(&mut c, &mut buf), vec!["{}"], "cut at {cut}");
        }
    }

    #[test]
    fn oversized_body_is_an_error() {
        let mut buf = BytesMut::from(&b"Content-Length: 999999999999\r\n\r\n"[..]);
        let err = DapCodec::default().decode(&mut buf).unwrap_err();
        assert!(err.to_string().contains("exceeds the limit"), "{err}");
    }

    #[test]
    fn malformed_headers_are_errors() {
        for raw in [
            &b"Content-Length: abc\r\n\r\n"[..],
            b"Foo: 1\r\n\r\n",
            b"\xff\xfe: 1\r\n\r\n",
        ] {
            let mut buf = BytesMut::from(raw);
            assert!(DapCodec::default().decode(&mut buf).is_err(), "{raw:?}");
        }
    }
}
