//! The script js-debug ends a launched program with. js-debug runs
//! `sh <its directory>/targets/node/terminateProcess.sh PID SIGNAL`; the npm
//! packaging pairdbg installs from leaves it out, and then js-debug cannot
//! end the program, so its launch connection never answers `disconnect`
//! and every Node session took the full disconnect deadline to end.

use std::path::Path;

const SCRIPT: &str = include_str!("boot/terminateProcess.sh");
const PLACE: &str = "targets/node/terminateProcess.sh";

/// Puts the script beside js-debug's server (`entry`) unless one is there.
pub fn ensure(entry: &Path) -> std::io::Result<()> {
    let Some(dir) = entry.parent() else {
        return Ok(());
    };
    let path = dir.join(PLACE);
    if path.is_file() {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let tmp = path.with_extension(format!("sh.{}", std::process::id()));
    std::fs::write(&tmp, SCRIPT)?;
    std::fs::rename(&tmp, &path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_is_put_beside_the_server_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let entry = dir.path().join("vsDebugServer.js");
        ensure(&entry).expect("written");
        let path = dir.path().join(PLACE);
        assert_eq!(std::fs::read_to_string(&path).ok().as_deref(), Some(SCRIPT));
        // One that is there already (a release's own) is left as it is.
        std::fs::write(&path, "theirs").expect("write");
        ensure(&entry).expect("kept");
        assert_eq!(
            std::fs::read_to_string(&path).ok().as_deref(),
            Some("theirs")
        );
    }
}
