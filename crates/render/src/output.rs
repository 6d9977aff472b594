//! Output: relative paths and bytes in, files under one output folder out. Every file is written to a
//! temporary name beside its target and renamed into place, so a failure never leaves a half-written file,
//! and nothing outside the folder is touched.

use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// An output folder.
#[derive(Debug, Clone)]
pub struct Output {
    root: PathBuf,
}

impl Output {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Output { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Write `bytes` to `rel` (a relative path without `..`) under the folder; returns the full path.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
        self.write_hashed(rel, bytes).map(|(p, _)| p)
    }

    /// [`Output::write`], also returning the file's sha256 (hex).
    pub fn write_hashed(&self, rel: &str, bytes: &[u8]) -> std::io::Result<(PathBuf, String)> {
        let rel_path = Path::new(rel);
        if rel.is_empty()
            || rel_path
                .components()
                .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("`{rel}` is not a plain relative path"),
            ));
        }
        let path = self.root.join(rel_path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| at(parent, e))?;
        }
        let sha = write_streamed(&path, |w| w.write_all(bytes))?;
        Ok((path, sha))
    }
}

impl Output {
    /// Write every (relative path, bytes) pair, stopping at the first failure.
    pub fn write_all(&self, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
        files
            .iter()
            .try_for_each(|(rel, bytes)| self.write(rel, bytes).map(drop))
    }
}

/// Write to a temporary file beside `path`, then rename it into place.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_streamed(path, |w| w.write_all(bytes)).map(drop)
}

/// Stream into a temporary file (`.<name>.tmp-<pid>`) beside `path`, then rename it into place, so a
/// killed process never leaves a truncated file under the output name; returns the sha256 (hex). No
/// fsync: the rename is atomic against a killed process, which is what a batch must survive, and fsyncing
/// tens of thousands of files would multiply the time of a run.
pub fn write_streamed(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<String> {
    use sha2::Digest;
    struct Hashing<W> {
        inner: W,
        hash: sha2::Sha256,
    }
    impl<W: Write> Write for Hashing<W> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let n = self.inner.write(buf)?;
            self.hash.update(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            self.inner.flush()
        }
    }
    let tmp = temporary(path);
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let mut w = Hashing {
            inner: std::io::BufWriter::with_capacity(1 << 16, file),
            hash: sha2::Sha256::new(),
        };
        fill(&mut w)?;
        w.flush()?;
        let Hashing { inner, hash } = w;
        inner.into_inner().map_err(|e| e.into_error())?;
        std::fs::rename(&tmp, path)?;
        Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(|e| at(path, e))
}

/// The temporary name a file is written under before it is renamed into place: `.<name>.tmp-<pid>` beside
/// it. [`is_temporary`] recognises exactly this pattern, so a later run can clear what a killed one left.
pub fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp-{}", std::process::id()))
}

/// Whether a file name is one of blockprint's temporaries: a dot, a non-empty name, `.tmp-` and a process
/// id (digits only). Anything else, such as a user's `.notes.tmp-draft` or `.keep`, is not.
pub fn is_temporary(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('.') else {
        return false;
    };
    let Some((stem, pid)) = rest.rsplit_once(".tmp-") else {
        return false;
    };
    !stem.is_empty()
        && !pid.is_empty()
        && pid.len() <= 10
        && pid.bytes().all(|b| b.is_ascii_digit())
}

/// Remove the temporaries ([`is_temporary`]) a killed run left in `dir` and the folders below it, and
/// return how many were removed. Only regular files are removed and only real folders are entered (never
/// a symbolic link), so nothing outside `dir` and nothing but blockprint's own temporaries is touched.
/// Runs before a run writes into a folder; two runs writing into one folder at once are not supported.
pub fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in rd.filter_map(|e| e.ok()) {
        let Ok(ty) = e.file_type() else {
            continue;
        };
        if ty.is_dir() {
            removed += remove_stale_temporaries(&e.path());
        } else if ty.is_file()
            && is_temporary(&e.file_name().to_string_lossy())
            && std::fs::remove_file(e.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

fn at(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_paths_that_leave_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = Output::new(dir.path().join("out"));
        for bad in ["../x", "/etc/x", "a/../../x", ""] {
            assert!(out.write(bad, b"x").is_err(), "{bad}");
        }
        let p = out.write("a/b.txt", b"hello").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"hello");
        let names: Vec<_> = std::fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("b.txt")]);
    }

    #[test]
    fn temporaries_are_recognised_exactly() {
        let p = temporary(Path::new("/x/1976-01-gm.pdf"));
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        assert!(is_temporary(&name), "{name}");
        for ours in [
            ".case.pdf.tmp-12345",
            ".manifest.journal.tmp-1",
            ".index.rows.tmp-77",
        ] {
            assert!(is_temporary(ours), "{ours}");
        }
        for theirs in [
            "case.pdf.tmp-12",
            ".tmp-12",
            ".notes.tmp-draft",
            ".notes.tmp-",
            ".keep",
            ".a.tmp-12x",
            "notes.txt",
            ".a.tmp-123456789012",
        ] {
            assert!(!is_temporary(theirs), "{theirs}");
        }
    }

    #[test]
    fn stale_temporaries_go_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir_all(d.join("a/b")).unwrap();
        for f in [".x.pdf.tmp-1", "a/.y.json.tmp-22", "a/b/.z.md.tmp-333"] {
            std::fs::write(d.join(f), b"half").unwrap();
        }
        for f in [".keep", "a/.notes.tmp-draft", "a/b/z.md", "a/x.tmp-4"] {
            std::fs::write(d.join(f), b"mine").unwrap();
        }
        // A folder named like a temporary is never removed, nor anything behind a symbolic link.
        std::fs::create_dir_all(d.join(".w.tmp-5")).unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join(".o.pdf.tmp-6"), b"outside").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path(), d.join("link")).unwrap();
        assert_eq!(remove_stale_temporaries(d), 3);
        for f in [
            ".keep",
            "a/.notes.tmp-draft",
            "a/b/z.md",
            "a/x.tmp-4",
            ".w.tmp-5",
        ] {
            assert!(d.join(f).exists(), "{f} kept");
        }
        assert!(outside.path().join(".o.pdf.tmp-6").exists());
    }
}
