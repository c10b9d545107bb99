//! What a core file itself records of the crash: the signal that ended the
//! program, read from the ELF notes the kernel wrote, whatever the adapter
//! says of it.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

const PT_NOTE: u32 = 4;
const ET_CORE: u16 = 4;
const NT_PRSTATUS: u32 = 1;
const NT_PRPSINFO: u32 = 3;
/// Where `pr_fname` sits in x86-64's `elf_prpsinfo`.
const PR_FNAME: usize = 40;
/// `SIGI`: the kernel's copy of the crashing thread's siginfo.
const NT_SIGINFO: u32 = 0x5349_4749;
/// The notes read at most: a core of thousands of threads has larger ones,
/// and the crashing thread's come first.
const MAX_NOTES: u64 = 4 << 20;

/// The signal that ended the program (`SIGSEGV`), or None where the core
/// does not say (a snapshot taken by `gcore` of a stopped process, or a
/// format other than 64-bit little-endian ELF).
pub fn signal(core: &Path) -> Option<String> {
    let number = signal_number(core)?;
    let signal = nix::sys::signal::Signal::try_from(number).ok()?;
    Some(signal.as_str().to_string())
}

/// Whether `path` is an ELF file (a core the kernel or gcore wrote), not
/// some other kind of dump.
pub fn is_elf(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && &magic == b"\x7fELF"
}

fn signal_number(core: &Path) -> Option<i32> {
    note_signal(&notes(core)?).filter(|n| *n > 0)
}

/// The name of the program that wrote the core, as the kernel kept it
/// (`pr_fname`: the executable's name, cut to 15 bytes).
pub fn command(core: &Path) -> Option<String> {
    note_command(&notes(core)?)
}

/// The note segments of a 64-bit little-endian ELF core, one after another.
fn notes(core: &Path) -> Option<Vec<u8>> {
    let mut file = std::fs::File::open(core).ok()?;
    let mut header = [0u8; 64];
    file.read_exact(&mut header).ok()?;
    if &header[..4] != b"\x7fELF" || header[4] != 2 || header[5] != 1 {
        return None;
    }
    if u16_at(&header, 16)? != ET_CORE {
        return None;
    }
    let phoff = u64_at(&header, 32)?;
    let phentsize = u64::from(u16_at(&header, 54)?);
    let phnum = u64::from(u16_at(&header, 56)?);
    let mut all = vec![];
    for i in 0..phnum {
        let mut ph = [0u8; 56];
        file.seek(SeekFrom::Start(phoff + i * phentsize)).ok()?;
        file.read_exact(&mut ph).ok()?;
        if u32_at(&ph, 0)? != PT_NOTE {
            continue;
        }
        let left = MAX_NOTES.saturating_sub(all.len() as u64);
        let (offset, size) = (u64_at(&ph, 8)?, u64_at(&ph, 32)?.min(left));
        let mut notes = vec![0u8; usize::try_from(size).ok()?];
        file.seek(SeekFrom::Start(offset)).ok()?;
        file.read_exact(&mut notes).ok()?;
        all.extend(notes);
    }
    Some(all)
}

/// Each note's type and body.
fn each_note(notes: &[u8]) -> impl Iterator<Item = (u32, &[u8])> {
    let mut at = 0usize;
    std::iter::from_fn(move || {
        let namesz = u32_at(notes, at)? as usize;
        let descsz = u32_at(notes, at + 4)? as usize;
        let kind = u32_at(notes, at + 8)?;
        let desc = at + 12 + namesz.next_multiple_of(4);
        let body = notes.get(desc..desc.checked_add(descsz)?)?;
        at = desc + descsz.next_multiple_of(4);
        Some((kind, body))
    })
}

fn note_command(notes: &[u8]) -> Option<String> {
    let (_, body) = each_note(notes).find(|(kind, _)| *kind == NT_PRPSINFO)?;
    let name = body.get(PR_FNAME..PR_FNAME + 16)?;
    let end = name.iter().position(|b| *b == 0).unwrap_or(name.len());
    let name = String::from_utf8_lossy(&name[..end]).into_owned();
    (!name.is_empty()).then_some(name)
}

/// The signal of the first thread's notes: siginfo's `si_signo`, else
/// prstatus's `pr_cursig`.
fn note_signal(notes: &[u8]) -> Option<i32> {
    let mut cursig = None;
    for (kind, body) in each_note(notes) {
        match kind {
            NT_SIGINFO => return i32_at(body, 0),
            // Only the first thread's: it is the one that crashed.
            NT_PRSTATUS if cursig.is_none() => {
                cursig = u16_at(body, 12).map(i32::from);
            }
            _ => {}
        }
    }
    cursig
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn i32_at(b: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(kind: u32, desc: &[u8]) -> Vec<u8> {
        let mut n = vec![];
        n.extend(5u32.to_le_bytes());
        n.extend((desc.len() as u32).to_le_bytes());
        n.extend(kind.to_le_bytes());
        n.extend(b"CORE\0\0\0\0");
        n.extend(desc);
        n
    }

    #[test]
    fn siginfo_is_read_before_prstatus() {
        let mut prstatus = vec![0u8; 16];
        prstatus[12] = 6;
        let mut notes = note(NT_PRSTATUS, &prstatus);
        assert_eq!(note_signal(&notes), Some(6));
        notes.extend(note(NT_SIGINFO, &11i32.to_le_bytes()));
        assert_eq!(note_signal(&notes), Some(11));
    }

    #[test]
    fn the_program_name_is_read_from_prpsinfo() {
        let mut prpsinfo = vec![0u8; 136];
        prpsinfo[PR_FNAME..PR_FNAME + 7].copy_from_slice(b"python3");
        let mut notes = note(NT_PRSTATUS, &[0u8; 16]);
        notes.extend(note(NT_PRPSINFO, &prpsinfo));
        assert_eq!(note_command(&notes).as_deref(), Some("python3"));
        assert_eq!(note_command(&note(NT_PRPSINFO, &[0u8; 136])), None);
    }

    #[test]
    fn a_file_that_is_no_core_says_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("core");
        std::fs::write(&p, b"\x7fELF not really").unwrap();
        assert_eq!(signal(&p), None);
        assert_eq!(note_signal(&[1, 2, 3]), None);
    }
}
