//! `init`: the built-in content in, the same files under a folder out (never overwriting anything).
//! `init --update`: a folder an older blockprint wrote gets the files and the kit pages' parts the
//! built-in content has gained since, and nothing else changes. The fronts say what was written.

use std::path::{Path, PathBuf};

use blockprint_content::ContentRoot;

/// Write the content into a hidden sibling folder first and move it into place at the end, so a killed
/// run leaves `dir` as it was (absent or empty) and a rerun simply starts again. A folder that holds
/// some but not all of the files `init` writes, each as `init` writes it (what an older run left), is
/// finished in place.
pub fn write_all(dir: &Path) -> std::io::Result<usize> {
    let files = ContentRoot::Embedded.files()?;
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| with(dir, e))?;
        if entries.next().is_some() {
            // A complete copy is refused like any other folder: nothing is left to finish.
            let complete = files.iter().all(|(rel, _)| dir.join(rel).exists());
            if complete || !only_init_files(dir, &files) {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    format!(
                        "{} is not empty; choose a new or empty folder so nothing in it is overwritten",
                        dir.display()
                    ),
                ));
            }
            write_missing(dir, &files)?;
            return Ok(files.len());
        }
    }
    // `.` or `..` have no name to put a sibling beside: use the folder's real path.
    let target: PathBuf = if dir.file_name().is_none() {
        std::fs::canonicalize(dir).map_err(|e| with(dir, e))?
    } else {
        dir.to_path_buf()
    };
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{}: not a folder init can write", dir.display()),
        ));
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    std::fs::create_dir_all(parent).map_err(|e| with(parent, e))?;
    let prefix = format!(".{}.init-", name.to_string_lossy());
    remove_dead_temporaries(parent, &prefix);
    let tmp = parent.join(format!("{prefix}{}", std::process::id()));
    if tmp.exists() {
        std::fs::remove_dir_all(&tmp).map_err(|e| with(&tmp, e))?;
    }
    let written = (|| {
        for (rel, bytes) in &files {
            let path = tmp.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| with(parent, e))?;
            }
            blockprint_render::output::write_atomic(&path, bytes)?;
        }
        if target.exists() {
            // An empty folder (perhaps a shell's working folder) stays the same folder: its few
            // top-level entries move in, and a kill between two moves leaves only init's own files.
            for entry in std::fs::read_dir(&tmp).map_err(|e| with(&tmp, e))? {
                let entry = entry.map_err(|e| with(&tmp, e))?;
                let to = target.join(entry.file_name());
                std::fs::rename(entry.path(), &to).map_err(|e| with(&to, e))?;
            }
            std::fs::remove_dir(&tmp).map_err(|e| with(&tmp, e))?;
        } else {
            std::fs::rename(&tmp, &target).map_err(|e| with(dir, e))?;
        }
        Ok(files.len())
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    written
}

/// Whether every file under `dir` is one `init` writes, with the bytes it writes (folders aside).
fn only_init_files(dir: &Path, files: &[(String, Vec<u8>)]) -> bool {
    let want: std::collections::HashMap<PathBuf, &[u8]> = files
        .iter()
        .map(|(rel, bytes)| (dir.join(rel), bytes.as_slice()))
        .collect();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            return false;
        };
        for entry in entries {
            let Ok(entry) = entry else { return false };
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => stack.push(path),
                Ok(t) if t.is_file() => match want.get(&path) {
                    Some(bytes) if std::fs::read(&path).is_ok_and(|b| b == *bytes) => {}
                    _ => return false,
                },
                _ => return false,
            }
        }
    }
    true
}

/// Remove what killed runs of `init` left beside the folder: `.<name>.init-<pid>` of a process that no
/// longer runs (a live run's folder is never touched). Where the system cannot say, nothing is removed.
fn remove_dead_temporaries(parent: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !alive(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` runs (Linux: it has a `/proc` entry); `true` where that cannot be known.
fn alive(pid: u32) -> bool {
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        Path::new(&format!("/proc/{pid}")).exists()
    } else {
        true
    }
}

/// Write each of `files` that `dir` lacks (atomically, its folders made as needed); returns the paths
/// written, in order. A file already there is left as it is.
fn write_missing(dir: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (rel, bytes) in files {
        let path = dir.join(rel);
        if !path.exists() {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| with(parent, e))?;
            }
            blockprint_render::output::write_atomic(&path, bytes)?;
            written.push(path);
        }
    }
    Ok(written)
}

fn with(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// `init --update`: write the built-in files `dir` lacks; add to each of its kit pages the `##` parts a
/// generator prints that the page lacks, as the built-in page words them, at the page's end. Returns a
/// line per file written and per part added (none: nothing was missing).
pub fn add_missing(dir: &Path) -> std::io::Result<Vec<String>> {
    let holds_content = std::fs::read_dir(dir)
        .map(|mut e| e.next().is_some())
        .unwrap_or(false);
    if !holds_content {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!(
                "{} holds no content to update; `blockprint init {}` writes a new copy",
                dir.display(),
                dir.display()
            ),
        ));
    }
    let files = ContentRoot::Embedded.files()?;
    let mut added = Vec::new();
    // Parts first, from the pages as they stand: a page written below already has every part.
    let mut pages: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let (builtin, _) = blockprint_content::load_files(files.clone());
    let registry = blockprint_kinds::Registry::new(&blockprint_render::Templates::builtin())
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    for kind in registry.kinds() {
        for (game, slug, anchors) in kind.requires().prose {
            let Some(page) = builtin.kit(&game).and_then(|k| k.page(&slug)) else {
                continue;
            };
            let Some(source) = builtin.sources.get(page.file) else {
                continue;
            };
            let want = pages.entry(source.path.clone()).or_default();
            for a in anchors {
                if !want.contains(&a) {
                    want.push(a);
                }
            }
        }
    }
    for (rel, anchors) in &pages {
        let path = dir.join(rel);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Some((_, builtin_bytes)) = files.iter().find(|(r, _)| r == rel) else {
            continue;
        };
        let builtin_text = String::from_utf8_lossy(builtin_bytes);
        let have: Vec<String> = parts(&text).into_iter().map(|(a, _)| a).collect();
        let mut more = String::new();
        for (anchor, part) in parts(&builtin_text) {
            if anchors.contains(&anchor) && !have.contains(&anchor) {
                more.push('\n');
                more.push_str(part.trim_end());
                more.push('\n');
                let heading = part.lines().next().unwrap_or_default();
                added.push(format!("added the part `{heading}` to {}", path.display()));
            }
        }
        if !more.is_empty() {
            let mut new = text.trim_end().to_owned();
            new.push('\n');
            new.push_str(&more);
            blockprint_render::output::write_atomic(&path, new.as_bytes())?;
        }
    }
    for path in write_missing(dir, &files)? {
        added.push(format!("wrote {}", path.display()));
    }
    Ok(added)
}

/// The `##` parts of a Markdown page, each as its anchor and its text (the heading line to the next `##`
/// heading or the end), fenced code aside.
fn parts(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
        }
        let heading = !fenced && t.starts_with("## ");
        if heading {
            let anchor = blockprint_content::prose::parse(t, "page")
                .blocks
                .into_iter()
                .find_map(|b| match b {
                    blockprint_content::prose::Block::Heading {
                        level: 2, anchor, ..
                    } => Some(anchor),
                    _ => None,
                })
                .unwrap_or_default();
            out.push((anchor, String::new()));
        }
        if let Some((_, part)) = out.last_mut() {
            part.push_str(line);
        }
    }
    out
}
