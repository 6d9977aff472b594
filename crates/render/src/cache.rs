//! The user's cache folder: what is costly to make and is a pure function of what it is made from (a card
//! picture drawn at 300 dpi, a simulated chase-odds page) is kept there under the sha256 of everything
//! that makes it, so a later run (another output folder, the other Foundry version, the studio) reads it
//! instead of making it again. The key always holds [`code`], the build of blockprint that made it, so a
//! rebuilt or upgraded blockprint never reads what another build made.
//!
//! The folder is `$BLOCKPRINT_CACHE` when set (`off` or empty: no cache), else `$XDG_CACHE_HOME/blockprint`,
//! else `~/.cache/blockprint` (`%LOCALAPPDATA%\blockprint` on Windows). Each entry is its bytes followed by
//! their sha256 and is renamed into place whole, so a torn or damaged entry is never read: it is made
//! again. A cache that cannot be read or written is no error, only slower. Past [`MAX_BYTES`] the entries
//! used least recently are removed.
//!
//! Output never depends on the cache's state: an entry holds exactly the bytes that making it gives, and
//! `tests/cache.rs` checks that a build with a warm cache and one with a cold cache write the same bytes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use sha2::{Digest, Sha256};

/// The environment variable naming the cache folder (`off` turns the cache off).
pub const ENV: &str = "BLOCKPRINT_CACHE";

/// The most bytes the cache keeps: past this, entries are removed oldest first (by last use) until it
/// holds three quarters of it. Every card picture of the built-in content takes about 6 MB.
pub const MAX_BYTES: u64 = 512 << 20;

/// Entries read from the cache and entries made and written to it by this process, for
/// `BLOCKPRINT_TIMINGS` and the tests.
pub static HITS: AtomicUsize = AtomicUsize::new(0);
pub static MISSES: AtomicUsize = AtomicUsize::new(0);

/// The cache folder, or `None` when the cache is off or there is no home to put it in.
pub fn dir() -> Option<PathBuf> {
    if let Some(v) = std::env::var_os(ENV) {
        if v.is_empty() || v == "off" {
            return None;
        }
        return Some(PathBuf::from(v));
    }
    let nonempty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if cfg!(windows) {
        return nonempty("LOCALAPPDATA").map(|d| PathBuf::from(d).join("blockprint"));
    }
    if let Some(d) = nonempty("XDG_CACHE_HOME") {
        return Some(PathBuf::from(d).join("blockprint"));
    }
    nonempty("HOME").map(|h| PathBuf::from(h).join(".cache").join("blockprint"))
}

/// This build of blockprint: its version, and the size and time of the running executable (a rebuilt
/// binary is another build, whatever its version says).
pub fn code() -> &'static str {
    static CODE: OnceLock<String> = OnceLock::new();
    CODE.get_or_init(|| {
        let exe = std::env::current_exe()
            .and_then(std::fs::metadata)
            .ok()
            .map(|m| {
                let at = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{} {at}", m.len())
            })
            .unwrap_or_default();
        format!("blockprint {} {exe}", env!("CARGO_PKG_VERSION"))
    })
}

/// A key: the sha256 (hex) of [`code`] and `parts`, each length-prefixed so no two lists of parts meet.
pub fn key(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in std::iter::once(code().as_bytes()).chain(parts.iter().copied()) {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn path(root: &Path, space: &str, key: &str) -> PathBuf {
    root.join(space)
        .join(key.get(..2).unwrap_or("__"))
        .join(key)
}

/// The bytes kept under `key` in `space` (`pictures`, `odds`), if a whole entry is there.
pub fn get(space: &str, key: &str) -> Option<Vec<u8>> {
    let root = dir()?;
    let p = path(&root, space, key);
    let mut bytes = std::fs::read(&p).ok()?;
    let at = bytes.len().checked_sub(32)?;
    if Sha256::digest(&bytes[..at]).as_slice() != &bytes[at..] {
        let _ = std::fs::remove_file(&p);
        return None;
    }
    bytes.truncate(at);
    // Used now: the last to go when the cache is trimmed.
    if let Ok(f) = std::fs::File::options().append(true).open(&p) {
        let _ = f.set_modified(std::time::SystemTime::now());
    }
    HITS.fetch_add(1, Ordering::Relaxed);
    Some(bytes)
}

/// Keep `bytes` under `key` in `space`. Failures are ignored: the cache only saves time.
pub fn put(space: &str, key: &str, bytes: &[u8]) {
    MISSES.fetch_add(1, Ordering::Relaxed);
    let Some(root) = dir() else { return };
    let p = path(&root, space, key);
    let Some(parent) = p.parent() else { return };
    if std::fs::create_dir_all(parent).is_err() {
        return;
    }
    // A name no other writer uses (threads of this process write the same key at once when two kinds
    // draw the same card), renamed into place whole.
    static N: AtomicU64 = AtomicU64::new(0);
    let tmp = parent.join(format!(
        ".{key}.tmp-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.write_all(&Sha256::digest(bytes))
    });
    if written.is_err() || std::fs::rename(&tmp, &p).is_err() {
        let _ = std::fs::remove_file(&tmp);
        return;
    }
    trim_once(&root);
}

/// Once a process, after its first write: remove the least recently used entries while the cache holds
/// more than [`MAX_BYTES`], down to three quarters of it; temporaries older than an hour (a killed
/// writer's) go too.
fn trim_once(root: &Path) {
    static TRIMMED: AtomicBool = AtomicBool::new(false);
    if TRIMMED.swap(true, Ordering::Relaxed) {
        return;
    }
    let mut entries = Vec::new();
    let mut total = 0u64;
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let Ok(spaces) = std::fs::read_dir(root) else {
        return;
    };
    for space in spaces.flatten() {
        let Ok(shards) = std::fs::read_dir(space.path()) else {
            continue;
        };
        for shard in shards.flatten() {
            let Ok(files) = std::fs::read_dir(shard.path()) else {
                continue;
            };
            for f in files.flatten() {
                let Ok(m) = f.metadata() else { continue };
                let at = m.modified().unwrap_or(std::time::UNIX_EPOCH);
                if f.file_name().to_string_lossy().starts_with('.') {
                    if at < old {
                        let _ = std::fs::remove_file(f.path());
                    }
                    continue;
                }
                total += m.len();
                entries.push((at, m.len(), f.path()));
            }
        }
    }
    if total <= MAX_BYTES {
        return;
    }
    entries.sort();
    for (_, len, p) in entries {
        if total <= MAX_BYTES / 4 * 3 {
            break;
        }
        if std::fs::remove_file(&p).is_ok() {
            total -= len;
        }
    }
}
