//! Reading a content root into files: the embedded folder, or a directory walked in path order with
//! links kept inside it, hidden files skipped and special files, loops and oversized files reported.

use super::*;

pub(crate) fn collect_embedded(dir: &Dir<'static>, out: &mut Vec<(String, Vec<u8>)>) {
    for f in dir.files() {
        let path = f.path().to_string_lossy().replace('\\', "/");
        if !is_hidden(&path) {
            out.push((path, f.contents().to_vec()));
        }
    }
    for d in dir.dirs() {
        if !is_hidden(&d.path().to_string_lossy()) {
            collect_embedded(d, out);
        }
    }
}

fn is_hidden(rel: &str) -> bool {
    rel.split('/').any(|part| part.starts_with('.'))
}

/// Walk the content folder `dir` into `out` (see [`ContentRoot::scan`]).
pub(super) fn folder(dir: &Path, out: &mut Files) -> io::Result<()> {
    let root = std::fs::canonicalize(dir).map_err(|e| with_path(e, dir))?;
    let mut walk = Walk {
        root: root.clone(),
        out,
        total: 0,
        ancestors: vec![root],
    };
    walk.dir(dir, "")
}

/// A walk of a content folder.
struct Walk<'a> {
    /// The root, canonical: a link must resolve inside it.
    root: PathBuf,
    out: &'a mut Files,
    total: u64,
    /// The canonical folders being walked, outermost first: a link back to one of them is a loop.
    ancestors: Vec<PathBuf>,
}

impl Walk<'_> {
    fn bad(&mut self, rel: &str, message: impl Into<String>, hint: impl Into<String>) {
        self.out.bad.push(BadFile {
            path: rel.to_owned(),
            message: message.into(),
            hint: hint.into(),
        });
    }

    /// Walk `dir` (as reached, possibly through a link), whose files are named `prefix<name>`.
    fn dir(&mut self, dir: &Path, prefix: &str) -> io::Result<()> {
        let mut entries = std::fs::read_dir(dir)
            .map_err(|e| with_path(e, dir))?
            .collect::<io::Result<Vec<_>>>()
            .map_err(|e| with_path(e, dir))?;
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = entry.path();
            let rel = format!("{prefix}{name}");
            let ty = entry.file_type().map_err(|e| with_path(e, &path))?;
            // What the entry is, links followed (by `stat`, which never opens it).
            let (meta, canonical) = if ty.is_symlink() {
                let canonical = match std::fs::canonicalize(&path) {
                    Ok(c) => c,
                    Err(e) if e.raw_os_error() == Some(ELOOP) => {
                        self.bad(
                            &rel,
                            "is a symbolic link in a loop (it leads back to itself)",
                            "point the link at a real file or folder inside the content folder, or remove it",
                        );
                        continue;
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        let to = std::fs::read_link(&path)
                            .map(|t| t.display().to_string())
                            .unwrap_or_default();
                        self.bad(
                            &rel,
                            format!("is a symbolic link to `{to}`, which does not exist"),
                            "point the link at a file inside the content folder, or remove it",
                        );
                        continue;
                    }
                    Err(e) => return Err(with_path(e, &path)),
                };
                if !canonical.starts_with(&self.root) {
                    self.bad(
                        &rel,
                        format!(
                            "is a symbolic link out of the content folder (to {})",
                            canonical.display()
                        ),
                        "copy the file into the content folder, or link only to files inside it",
                    );
                    continue;
                }
                let meta = std::fs::metadata(&canonical).map_err(|e| with_path(e, &path))?;
                (meta, Some(canonical))
            } else {
                let meta = std::fs::symlink_metadata(&path).map_err(|e| with_path(e, &path))?;
                (meta, None)
            };
            if meta.is_dir() {
                let lower = name.to_ascii_lowercase();
                if lower.ends_with(".toml") || lower.ends_with(".md") {
                    self.bad(
                        &rel,
                        "is a folder named like a content file",
                        "content files are regular files; rename the folder (or move the file it should be into its place)",
                    );
                    continue;
                }
                let canonical = match canonical {
                    Some(c) => c,
                    None => std::fs::canonicalize(&path).map_err(|e| with_path(e, &path))?,
                };
                if self.ancestors.contains(&canonical) {
                    self.bad(
                        &rel,
                        "is a symbolic link in a loop (it leads to a folder that holds it)",
                        "remove the link, or point it at a folder that does not contain it",
                    );
                    continue;
                }
                self.ancestors.push(canonical);
                let r = self.dir(&path, &format!("{rel}/"));
                self.ancestors.pop();
                r?;
            } else if meta.is_file() {
                if meta.len() > MAX_FILE_BYTES {
                    self.bad(
                        &rel,
                        format!(
                            "is {} bytes; content files may be at most {MAX_FILE_BYTES} bytes ({} MiB)",
                            meta.len(),
                            MAX_FILE_BYTES >> 20
                        ),
                        "split the content into several files, or move what is not content out of the content folder",
                    );
                    continue;
                }
                if self.total + meta.len() > MAX_TOTAL_BYTES {
                    self.bad(
                        &rel,
                        format!(
                            "takes the content folder past {} MiB altogether",
                            MAX_TOTAL_BYTES >> 20
                        ),
                        "move what is not content out of the content folder",
                    );
                    continue;
                }
                let bytes = std::fs::read(&path).map_err(|e| with_path(e, &path))?;
                self.total += bytes.len() as u64;
                self.out.files.push((rel, bytes));
            } else {
                self.bad(
                    &rel,
                    format!("is {}, not a regular file", special_kind(&meta)),
                    "content is read from regular files only; remove it or replace it with a file",
                );
            }
        }
        Ok(())
    }
}

/// `ELOOP`: too many levels of symbolic links (40 on Linux, 62 on the BSDs and macOS).
#[cfg(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd"
))]
const ELOOP: i32 = 62;
#[cfg(not(any(
    target_os = "macos",
    target_os = "ios",
    target_os = "freebsd",
    target_os = "openbsd",
    target_os = "netbsd"
)))]
const ELOOP: i32 = 40;

/// What a file that is neither a regular file nor a folder is.
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    let _ = meta;
    "a special file"
}
