//! Telling a coredumpy dump from other files: gzipped JSON (or plain JSON,
//! for a `.json` dump) whose first key is coredumpy's `objects`.

use std::io::Read;
use std::path::Path;

/// How coredumpy's `json.dumps` begins every dump.
const START: &[u8] = b"{\"objects\":";

pub fn is_python_dump(path: &Path) -> bool {
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut magic = [0u8; 2];
    if file.read_exact(&mut magic).is_err() {
        return false;
    }
    let mut head = [0u8; START.len()];
    let read = if magic == [0x1f, 0x8b] {
        let Ok(file) = std::fs::File::open(path) else {
            return false;
        };
        flate2::read::GzDecoder::new(file).read_exact(&mut head)
    } else {
        head[..2].copy_from_slice(&magic);
        file.read_exact(&mut head[2..])
    };
    read.is_ok() && head == START
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn gzipped_and_plain_dumps_are_told_from_other_files() {
        let dir = tempfile::tempdir().unwrap();
        let body = br#"{"objects": {}, "threads": {}}"#;
        let gz = dir.path().join("a.dump");
        let mut e = flate2::write::GzEncoder::new(
            std::fs::File::create(&gz).unwrap(),
            flate2::Compression::default(),
        );
        e.write_all(body).unwrap();
        e.finish().unwrap();
        assert!(is_python_dump(&gz));
        let plain = dir.path().join("a.json");
        std::fs::write(&plain, body).unwrap();
        assert!(is_python_dump(&plain));
        let other = dir.path().join("core");
        std::fs::write(&other, b"\x7fELF\x02\x01\x01").unwrap();
        assert!(!is_python_dump(&other));
        let other_gz = dir.path().join("b.gz");
        let mut e = flate2::write::GzEncoder::new(
            std::fs::File::create(&other_gz).unwrap(),
            flate2::Compression::default(),
        );
        e.write_all(br#"{"other": 1}"#).unwrap();
        e.finish().unwrap();
        assert!(!is_python_dump(&other_gz));
        assert!(!is_python_dump(&dir.path().join("missing")));
    }
}
