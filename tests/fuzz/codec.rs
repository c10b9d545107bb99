//! The DAP codec: a stream cut into reads at arbitrary places must frame
//! exactly as the same stream read at once, and never hold more than one
//! header and one body's limit.

use arbitrary::Unstructured;
use bytes::BytesMut;
use pairdbg::dap::codec::{DapCodec, MAX_BODY_BYTES, MAX_HEADER_BYTES};
use tokio_util::codec::Decoder;

/// Frames until the stream errs or runs dry: the bodies, and whether it erred.
fn decode(reads: &[&[u8]]) -> (Vec<Vec<u8>>, bool) {
    let mut codec = DapCodec::default();
    let mut buf = BytesMut::new();
    let mut frames = vec![];
    for read in reads {
        buf.extend_from_slice(read);
        loop {
            match codec.decode(&mut buf) {
                Ok(Some(body)) => {
                    assert!(body.len() <= MAX_BODY_BYTES, "a body past the limit");
                    frames.push(body.to_vec());
                }
                Ok(None) => break,
                Err(_) => return (frames, true),
            }
        }
        // What waits for more is one header and one body at most.
        assert!(
            buf.len() <= MAX_HEADER_BYTES + 4 + MAX_BODY_BYTES,
            "{} bytes held",
            buf.len()
        );
    }
    (frames, false)
}

pub fn run(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mode: u8 = u.arbitrary().unwrap_or(0);
    let n_cuts = usize::from(u.arbitrary::<u8>().unwrap_or(0) % 16);
    let mut cuts: Vec<usize> = (0..n_cuts)
        .filter_map(|_| u.arbitrary::<u16>().ok().map(usize::from))
        .collect();
    let mut stream = u.take_rest().to_vec();
    if mode == 0xB5 {
        // A body of 50 MB, honestly framed: it must come through whole.
        let body: Vec<u8> = stream.iter().copied().cycle().take(50 << 20).collect();
        if body.is_empty() {
            return;
        }
        stream = pairdbg::dap::codec::frame(&body);
        let (frames, erred) = decode(&[&stream[..stream.len() / 2], &stream[stream.len() / 2..]]);
        assert!(
            !erred && frames.len() == 1 && frames[0] == body,
            "a 50 MB frame was lost"
        );
        return;
    }
    cuts.iter_mut().for_each(|c| *c = (*c).min(stream.len()));
    cuts.sort_unstable();
    let mut reads = vec![];
    let mut from = 0;
    for c in cuts {
        reads.push(&stream[from..c]);
        from = c;
    }
    reads.push(&stream[from..]);
    let whole = decode(&[&stream]);
    let split = decode(&reads);
    assert_eq!(whole, split, "framing depends on where the reads fall");
}
