//! `--keep-core`: the launched program may write a core file when it
//! crashes, and the session says where the kernel put it.

use std::path::Path;

const CORE_PATTERN: &str = "/proc/sys/kernel/core_pattern";
const CORE_USES_PID: &str = "/proc/sys/kernel/core_uses_pid";

/// The signals whose default action writes a core (signal(7)).
const DUMPING: &[&str] = &[
    "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGSEGV", "SIGSYS", "SIGXCPU",
    "SIGXFSZ",
];

/// File-backed private mappings (the program's code): bit 2 of
/// coredump_filter (core(5)).
const FILE_PRIVATE: u32 = 1 << 2;

/// Raises this process's core limit as far as its hard limit lets it, and
/// has its cores hold the program's code too, so the adapter and the
/// program it starts inherit both. Says why not where no core can be
/// written.
pub fn raise_limit() -> Result<(), String> {
    // lldb-dap disassembles a core from its own bytes only; without the
    // code in it, the disassembly is not read.
    let filter = "/proc/self/coredump_filter";
    if let Some(bits) = std::fs::read_to_string(filter)
        .ok()
        .and_then(|s| u32::from_str_radix(s.trim(), 16).ok())
        .filter(|b| b & FILE_PRIVATE == 0)
    {
        let _ = std::fs::write(filter, format!("{:x}", bits | FILE_PRIVATE));
    }
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read and write `limit`.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_CORE, &mut limit) != 0 {
            return Err(format!(
                "the core limit was not read: {}",
                std::io::Error::last_os_error()
            ));
        }
        if limit.rlim_max == 0 {
            return Err(
                "the core limit's hard cap is 0 (`ulimit -Hc`): no core file can be written".into(),
            );
        }
        limit.rlim_cur = limit.rlim_max;
        if libc::setrlimit(libc::RLIMIT_CORE, &limit) != 0 {
            return Err(format!(
                "the core limit was not raised: {}",
                std::io::Error::last_os_error()
            ));
        }
    }
    Ok(())
}

/// Where the ended program's core went, where a signal that writes one
/// ended it; an exit code the adapter gives alike for a signal is told as
/// "if".
pub fn after_end(
    exit: &super::types::ExitInfo,
    program: Option<&Path>,
    cwd: &Path,
) -> Option<String> {
    if let Some(s) = &exit.signal {
        return where_it_went(s, program, cwd);
    }
    let code = exit.exit_code.filter(|_| exit.code_or_signal)?;
    let signal = crate::adapters::signal_name(i32::try_from(code).ok()?)?;
    let went = where_it_went(signal, program, cwd)?;
    let went = went.replacen("Its core", "its core", 1);
    Some(format!("If {signal} ended it, {went}"))
}

/// Where the program's crash dump went, where this run wrote one.
pub fn dump_written(dump: &Path, since: std::time::SystemTime) -> Option<String> {
    let written = std::fs::metadata(dump).and_then(|m| m.modified()).ok()?;
    (written >= since).then(|| {
        format!(
            "Its crash dump went to {}: open it with `pairdbg run --core {}`.",
            dump.display(),
            dump.display()
        )
    })
}

/// Where the core of a program killed by `signal` went, as a sentence; None
/// for a signal that writes no core.
pub fn where_it_went(signal: &str, program: Option<&Path>, cwd: &Path) -> Option<String> {
    if !DUMPING.contains(&signal) {
        return None;
    }
    let pattern = match std::fs::read_to_string(CORE_PATTERN) {
        Ok(p) => p.trim().to_string(),
        Err(e) => {
            return Some(format!(
                "Where its core went was not read ({CORE_PATTERN}: {e})."
            ));
        }
    };
    let uses_pid = std::fs::read_to_string(CORE_USES_PID).is_ok_and(|s| s.trim() == "1");
    Some(describe(&pattern, uses_pid, program, cwd))
}

fn describe(pattern: &str, uses_pid: bool, program: Option<&Path>, cwd: &Path) -> String {
    if let Some(helper) = pattern.strip_prefix('|') {
        let helper = helper.split_whitespace().next().unwrap_or_default();
        return format!(
            "Its core went to the program {helper} (core_pattern starts with `|`), not to a file; where that program is systemd-coredump, `coredumpctl dump -o core` writes it out."
        );
    }
    let name = program
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().chars().take(15).collect::<String>());
    let mut file = String::new();
    let mut chars = pattern.chars();
    let mut has_pid = false;
    while let Some(c) = chars.next() {
        if c != '%' {
            file.push(c);
            continue;
        }
        match chars.next() {
            Some('%') => file.push('%'),
            Some('e') if name.is_some() => file.push_str(name.as_deref().unwrap_or_default()),
            Some('p') => {
                has_pid = true;
                file.push_str("<pid>");
            }
            Some(other) => {
                file.push('<');
                file.push(other);
                file.push('>');
            }
            None => {}
        }
    }
    if uses_pid && !has_pid {
        file.push_str(".<pid>");
    }
    let path = match Path::new(&file).is_absolute() {
        true => Path::new(&file).to_path_buf(),
        false => cwd.join(&file),
    };
    let filled = match file.contains('<') {
        true => "; `<x>` stands for what the kernel filled in",
        false => "",
    };
    format!(
        "Its core file is {} (as core_pattern {pattern:?} names it{filled}), unless the core limit or the file system stopped it.",
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_helper_program_takes_the_core() {
        let s = describe(
            "|/usr/lib/systemd/systemd-coredump %P %u",
            false,
            None,
            Path::new("/w"),
        );
        assert!(
            s.contains("to the program /usr/lib/systemd/systemd-coredump"),
            "{s}"
        );
    }

    #[test]
    fn a_plain_name_is_in_the_programs_directory() {
        let s = describe("core", false, None, Path::new("/w"));
        assert!(s.starts_with("Its core file is /w/core "), "{s}");
        let s = describe("core", true, None, Path::new("/w"));
        assert!(s.starts_with("Its core file is /w/core.<pid> "), "{s}");
        let s = describe(
            "/var/crash/%e.%p",
            true,
            Some(Path::new("/b/app")),
            Path::new("/w"),
        );
        assert!(
            s.starts_with("Its core file is /var/crash/app.<pid> "),
            "{s}"
        );
    }

    #[test]
    fn only_signals_that_dump_have_a_core() {
        assert!(where_it_went("SIGKILL", None, Path::new("/")).is_none());
        assert!(where_it_went("SIGSEGV", None, Path::new("/")).is_some());
    }
}
