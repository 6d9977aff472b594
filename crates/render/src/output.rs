//! Output: relative paths and bytes in, files under one output folder out. Every file is written to a
//! temporary name beside its target and renamed into place, so a failure never leaves a half-written file,
//! and nothing outside the folder is touched. A command that writes into a folder holds the folder's lock
//! ([`lock_folder`]) while it does, so two commands never interleave their writes in one folder.

use std::io::{Read, Seek, Write};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

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

/// [`write_streamed`] for a writer that fails with blockprint's own error: the folder is made first,
/// and the writer's error comes back as it was (an I/O error names `path`). Returns the sha256 (hex).
pub fn stream_into(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> blockprint_content::error::Result<()>,
) -> blockprint_content::error::Result<String> {
    use blockprint_content::error::Error;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    }
    let mut failure = None;
    let written = write_streamed(path, |w| {
        fill(w).map_err(|e| {
            let io = std::io::Error::other(e.to_string());
            failure = Some(e);
            io
        })
    });
    match (written, failure) {
        (Ok(sha), _) => Ok(sha),
        (Err(_), Some(e)) => Err(e),
        (Err(e), None) => Err(Error::io(path, e)),
    }
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

/// The process a temporary's name says wrote it (`.<name>.tmp-<pid>`), if its name is one.
pub fn temporary_owner(name: &str) -> Option<u32> {
    if !is_temporary(name) {
        return None;
    }
    name.rsplit_once(".tmp-")?.1.parse().ok()
}

/// Whether process `pid` may still be running: this process always is; on Linux, a process is running
/// while `/proc/<pid>` exists (a process of another pid namespace, which `/proc` does not show, counts
/// as gone: the folder lock keeps such a process and this one apart). Where processes cannot be looked up
/// every other process counts as gone, and the folder lock alone keeps live writers' files safe.
pub fn process_may_run(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(target_os = "linux")]
    if Path::new("/proc/self").exists() {
        return Path::new("/proc").join(pid.to_string()).exists();
    }
    false
}

/// Remove the temporaries ([`is_temporary`]) a killed run left in `dir` and the folders below it, and
/// return how many were removed. A temporary whose process may still be running ([`process_may_run`]:
/// this one, or another that is writing it right now) is left alone. Only regular files are removed and
/// only real folders are entered (never a symbolic link), so nothing outside `dir` and nothing but
/// blockprint's own temporaries is touched. The driver calls it while it holds the folder's lock
/// ([`lock_folder`]), so no other blockprint command is writing into the folder.
pub fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in rd.filter_map(|e| e.ok()) {
        let Ok(ty) = e.file_type() else {
            continue;
        };
        let name = e.file_name().to_string_lossy().into_owned();
        if ty.is_dir() {
            removed += remove_stale_temporaries(&e.path());
        } else if ty.is_file()
            && is_temporary(&name)
            && temporary_owner(&name).is_none_or(|pid| !process_may_run(pid))
            && std::fs::remove_file(e.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

/// The lock file of a folder, `.blockprint.lock`: it holds the process id of the command that holds the
/// lock, and is there only while one does (or after one was killed).
pub const LOCK_FILE: &str = ".blockprint.lock";

/// How long a command tries for a folder's lock before it says it is waiting.
const QUIET_WAIT: Duration = Duration::from_millis(250);

/// A folder's lock, held until dropped.
#[derive(Debug)]
pub struct FolderLock {
    file: Option<std::fs::File>,
    path: PathBuf,
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        let Some(f) = self.file.take() else {
            return;
        };
        // The file goes while the lock is still held, so a command that was waiting on it finds it gone
        // and locks a new one (see `lock_folder`); a finished command leaves nothing in the folder. Where
        // a file cannot be told from another by its identity, it stays, emptied.
        if cfg!(unix) {
            let _ = std::fs::remove_file(&self.path);
        } else {
            let _ = f.set_len(0);
        }
        let _ = f.unlock();
    }
}

/// Take the exclusive lock of folder `dir` (which must exist): an advisory lock (`File::lock`) on
/// `dir/.blockprint.lock`, held by the returned guard for as long as the command writes there. A command
/// that finds another holding it waits for it rather than failing, so two scripts run at once both get
/// their turn; after a quarter of a second it says so to `sink`, naming the folder and the holder's
/// process id: `waiting for another blockprint command on DIR (pid N)…`.
///
/// The holder removes the file before it lets go, so a finished command leaves no file behind. A command
/// that was waiting then holds the lock of a file no longer in the folder: it checks that the file it
/// locked is still the one at the path (same device and inode) and otherwise starts again, so two
/// commands never hold the lock at once. A killed holder's file stays, and the next command locks it as it
/// is. On a file system without locks it warns (to `sink`) and goes on unlocked.
pub fn lock_folder(
    dir: &Path,
    sink: &dyn blockprint_kind::sink::Sink,
) -> std::io::Result<FolderLock> {
    use blockprint_kind::sink::Event;
    let path = dir.join(LOCK_FILE);
    let started = Instant::now();
    let mut announced = false;
    let mut file = loop {
        // A holder that failed removes the folder it made (see `driver::run`): make it again.
        std::fs::create_dir_all(dir)?;
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock)
                    if !announced && started.elapsed() < QUIET_WAIT =>
                {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    if !announced {
                        let mut holder = String::new();
                        let _ = (&file).read_to_string(&mut holder);
                        let pid = holder
                            .trim()
                            .parse::<u32>()
                            .map(|p| format!(" (pid {p})"))
                            .unwrap_or_default();
                        sink.event(Event::Note(format!(
                            "waiting for another blockprint command on {}{pid}…",
                            dir.display()
                        )));
                        announced = true;
                    }
                    file.lock()?;
                    break;
                }
                Err(std::fs::TryLockError::Error(e))
                    if e.kind() == std::io::ErrorKind::Unsupported =>
                {
                    sink.event(Event::Warning(format!(
                        "warning: {} cannot be locked here ({e}); run one blockprint command at a time on {}",
                        path.display(),
                        dir.display()
                    )));
                    drop(file);
                    let _ = std::fs::remove_file(&path);
                    return Ok(FolderLock { file: None, path });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(e),
            }
        }
        if still_at(&file, &path) {
            break file;
        }
    };
    // The holder's process id, for a command that waits; a killed holder's is overwritten here.
    file.set_len(0)?;
    file.rewind()?;
    write!(file, "{}", std::process::id())?;
    file.flush()?;
    Ok(FolderLock {
        file: Some(file),
        path,
    })
}

/// Whether the open `file` is the file at `path` (not one removed since it was opened).
fn still_at(file: &std::fs::File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
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
        // Process ids above Linux's highest (2^22): no process has them.
        for f in [
            ".x.pdf.tmp-4194305",
            "a/.y.json.tmp-4194322",
            "a/b/.z.md.tmp-4194333",
        ] {
            std::fs::write(d.join(f), b"half").unwrap();
        }
        // This process is running: its temporary is being written and stays.
        let ours = format!("a/.w.json.tmp-{}", std::process::id());
        std::fs::write(d.join(&ours), b"being written").unwrap();
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
            &ours,
        ] {
            assert!(d.join(f).exists(), "{f} kept");
        }
        assert!(outside.path().join(".o.pdf.tmp-6").exists());
    }

    #[test]
    fn a_folder_lock_is_held_until_dropped_and_names_its_holder() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().to_owned();
        let first = lock_folder(&d, &blockprint_kind::sink::Silent).unwrap();
        let pid = std::process::id().to_string();
        assert_eq!(std::fs::read_to_string(d.join(LOCK_FILE)).unwrap(), pid);
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = std::thread::spawn(move || {
            let second = lock_folder(&d, &blockprint_kind::sink::Silent).unwrap();
            tx.send(std::fs::read_to_string(d.join(LOCK_FILE)).unwrap())
                .unwrap();
            drop(second);
        });
        assert!(
            rx.recv_timeout(Duration::from_millis(600)).is_err(),
            "a second lock was taken while the first was held"
        );
        drop(first);
        // The waiter locked the file the first holder removed, saw it gone, and locked a new one.
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), pid);
        waiter.join().unwrap();
        #[cfg(unix)]
        assert!(
            !dir.path().join(LOCK_FILE).exists(),
            "a released lock leaves its file"
        );
    }

    /// A killed holder's file (its process id in it) is locked as it is, and goes when released.
    #[test]
    fn a_killed_holders_lock_file_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(LOCK_FILE), b"4194305").unwrap();
        let lock = lock_folder(dir.path(), &blockprint_kind::sink::Silent).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join(LOCK_FILE)).unwrap(),
            std::process::id().to_string()
        );
        drop(lock);
        #[cfg(unix)]
        assert!(!dir.path().join(LOCK_FILE).exists());
    }

    #[test]
    fn a_temporary_names_its_process() {
        assert_eq!(temporary_owner(".a.pdf.tmp-123"), Some(123));
        assert_eq!(temporary_owner(".a.pdf.tmp-x"), None);
        assert_eq!(temporary_owner("a.pdf"), None);
        assert!(process_may_run(std::process::id()));
        #[cfg(target_os = "linux")]
        assert!(!process_may_run(4_194_305));
    }
}
