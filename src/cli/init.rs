//! `blockprint init DIR`: the built-in content in, the same files under DIR out (never overwriting anything).

use std::path::Path;

use crate::content::ContentRoot;

use super::Status;

pub(super) fn run(dir: &Path, quiet: bool) -> Status {
    match write_all(dir) {
        Ok(_) if quiet => Status::Ok,
        Ok(n) => {
            // On stderr, as every command says what it wrote.
            eprintln!(
                "wrote {n} files to {}; check them with `blockprint check --content {}`",
                dir.display(),
                dir.display()
            );
            Status::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Status::Io
        }
    }
}

fn write_all(dir: &Path) -> std::io::Result<usize> {
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| with(dir, e))?;
        if entries.next().is_some() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "{} is not empty; choose a new or empty folder so nothing in it is overwritten",
                    dir.display()
                ),
            ));
        }
    }
    let files = ContentRoot::Embedded.files()?;
    for (rel, bytes) in &files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| with(parent, e))?;
        }
        crate::render::output::write_atomic(&path, bytes)?;
    }
    Ok(files.len())
}

fn with(path: &Path, e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}
