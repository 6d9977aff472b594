//! The output folder's ledger: a kind's folder and the run's identity in; `manifest.json` (command, seed,
//! content and blockprint versions, every file with its sha256) out. While a run writes, each finished file
//! is appended to a hidden journal, so a run killed at any moment is resumed by rerunning it: files present
//! and matching their recorded hash are skipped. A folder that holds another batch (another seed, year or
//! paper) is refused unless `--force`; output of older content or another blockprint version is stale and
//! is replaced.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::RenderError;
use blockprint_content::error::{Bug, Error, Result};

pub const MANIFEST: &str = "manifest.json";
const JOURNAL: &str = ".manifest.journal";

/// What makes two runs the same batch (`batch`) and what makes output stale (`versions`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub kind: String,
    /// Seed, year, paper … of a rolled kind; paper of a layout kind.
    pub batch: serde_json::Value,
    pub content_version: String,
    /// A fingerprint of the templates the run used (the built-in ones and any `--templates` folder), so
    /// an edited template makes the output stale like edited content does. Older manifests lack it,
    /// and their output is stale.
    #[serde(default)]
    pub templates: String,
    /// The fonts of the run's `--font-path` folders, each by its name below its folder and its sha256,
    /// in the order typst read them: another font, or a changed one, makes the output stale. Empty (and
    /// not written) for a run on the embedded fonts alone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fonts: Vec<FontPrint>,
    pub blockprint: String,
}

/// One extra font of a run ([`Identity::fonts`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FontPrint {
    pub file: String,
    pub sha256: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    #[serde(flatten)]
    pub identity: Identity,
    /// The command that last wrote here.
    pub command: String,
    /// Every file this kind wrote here (relative to the folder, `/`-separated) → sha256 (hex).
    pub files: BTreeMap<String, String>,
    /// The files made from other files of the folder (a merged PDF from the items' parts): what they were
    /// made from, so a rerun that would make them from the same inputs keeps them instead.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub made_from: BTreeMap<String, MadeFrom>,
    /// What the run that wrote this manifest made, all of it: a later run of the same batch that would
    /// make the same has nothing to do while every file is as listed ([`up_to_date`]). Older manifests
    /// lack it, and their next run makes its documents to find out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<Made>,
}

/// What a finished run made: every document of its request (seed, paper, first number and count: two
/// runs of one batch may make different parts of it) in these formats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Made {
    pub request: serde_json::Value,
    pub formats: Vec<super::Format>,
    pub documents: usize,
    /// What else decided the documents ([`blockprint_kind::Kind::state`]), when anything did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<serde_json::Value>,
}

/// What a combined file was made from: the sha256 of its inputs' description (each input's path, hash
/// and bookmark, in order, and the options), and the sha256 of the file that made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MadeFrom {
    pub inputs: String,
    pub sha256: String,
}

/// The sha256 of some bytes, in hex.
pub fn sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if s.len() != 64 {
        return None;
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// Whether `dir` holds everything a run of `identity` making `made` would make, as that run made it: a
/// finished manifest of the same batch, versions and formats, no journal of a run since, and every file
/// it lists on disk with its recorded sha256. Then the run has nothing to do and makes no document;
/// returns how many files the folder holds. Anything else (a file missing or edited, a killed run,
/// other content, templates or formats) is `None`, and the run goes the ordinary way, which keeps what
/// it can.
pub fn up_to_date(dir: &Path, identity: &Identity, made: &Made) -> Option<usize> {
    use rayon::prelude::*;
    if made.formats.is_empty() || dir.join(JOURNAL).exists() {
        return None;
    }
    let m = read_manifest(dir)?;
    if m.identity != *identity || m.made.as_ref() != Some(made) {
        return None;
    }
    let files: Vec<(&String, &String)> = m.files.iter().collect();
    files
        .par_iter()
        .all(|(rel, sha)| {
            plain_relative(rel) && file_sha256(&dir.join(rel)).is_some_and(|s| &s == *sha)
        })
        .then_some(files.len())
}

/// An open output folder for one kind's run.
pub struct Ledger {
    dir: PathBuf,
    identity: Identity,
    command: String,
    /// Files known from an earlier run of the same batch (manifest or journal).
    known: BTreeMap<String, String>,
    /// What the earlier run's combined files were made from (from its manifest).
    known_from: BTreeMap<String, MadeFrom>,
    /// The earlier run's manifest, when it is of this very batch and versions: kept as it is when this
    /// run writes nothing and lists the same files.
    previous: Option<Manifest>,
    /// Whether this run wrote any file (or only kept them).
    wrote_any: std::sync::atomic::AtomicBool,
    made_from: Mutex<BTreeMap<String, MadeFrom>>,
    /// What this run made, once it has made every document ([`Ledger::made_all`]).
    made: Mutex<Option<Made>>,
    /// Files written or kept by this run, in finishing order (compact: a batch has tens of thousands).
    written: Mutex<Vec<(Box<str>, [u8; 32])>>,
    journal: Mutex<std::fs::File>,
}

/// The seed of the batch a folder holds, if any (so a rerun without `--seed` continues it).
pub fn existing_batch(dir: &Path) -> Option<serde_json::Value> {
    read_manifest(dir)
        .map(|m| m.identity.batch)
        .or_else(|| read_journal(dir).map(|(id, _)| id.batch))
}

impl Ledger {
    /// Open `dir` for a run with `identity`. Refuses a folder holding another batch unless `force`; with
    /// `replace` (a kind that rolls nothing, whose one output simply follows its options) another batch
    /// of the same kind is stale output and is replaced.
    pub fn open(
        dir: &Path,
        identity: Identity,
        command: String,
        force: bool,
        replace: bool,
    ) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let manifest = read_manifest(dir);
        let journal = read_journal(dir);
        let mut known = BTreeMap::new();
        let mut stale: Vec<String> = Vec::new();
        // A finished run of this very batch and versions: its record of combined files holds, and its
        // manifest stays as it is if this run changes nothing.
        let same = |id: &Identity| {
            id.kind == identity.kind
                && id.batch == identity.batch
                && id.content_version == identity.content_version
                && id.templates == identity.templates
                && id.fonts == identity.fonts
                && id.blockprint == identity.blockprint
        };
        let finished = manifest.clone().filter(|m| same(&m.identity));
        let known_from = finished
            .as_ref()
            .map(|m| m.made_from.clone())
            .unwrap_or_default();
        let previous: Vec<(Identity, BTreeMap<String, String>)> = manifest
            .map(|m| (m.identity, m.files))
            .into_iter()
            .chain(journal)
            .collect();
        if previous.is_empty()
            && !force
            && let Some(name) = first_visible_file(dir)
        {
            return Err(Error::Conflict {
                dir: dir.to_owned(),
                theirs: format!("files without a manifest, such as `{name}`"),
                ours: describe(&identity),
            });
        }
        for (id, files) in previous {
            let same_batch = id.kind == identity.kind && id.batch == identity.batch;
            let may_replace = same_batch || force || (replace && id.kind == identity.kind);
            if !may_replace {
                return Err(Error::Conflict {
                    dir: dir.to_owned(),
                    theirs: describe(&id),
                    ours: describe(&identity),
                });
            }
            if same_batch
                && id.content_version == identity.content_version
                && id.templates == identity.templates
                && id.fonts == identity.fonts
                && id.blockprint == identity.blockprint
            {
                known.extend(files);
            } else {
                stale.extend(files.into_keys());
            }
        }
        for rel in &stale {
            // A manifest is a file like any other: never follow one of its names out of the folder.
            if !known.contains_key(rel) && plain_relative(rel) {
                let _ = std::fs::remove_file(dir.join(rel));
            }
        }
        // What a killed run was writing when it died: never a finished file, so it goes.
        super::output::remove_stale_temporaries(dir);
        let jpath = dir.join(JOURNAL);
        // Carry what is known into a fresh journal, so a second kill loses nothing either.
        let mut text =
            serde_json::to_string(&identity).map_err(|e| Bug::json("the journal's batch", e))?;
        text.push('\n');
        for (rel, sha) in &known {
            text.push_str(&format!("{sha} {rel}\n"));
        }
        super::output::write_atomic(&jpath, text.as_bytes()).map_err(|e| Error::io(&jpath, e))?;
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&jpath)
            .map_err(|e| Error::io(&jpath, e))?;
        Ok(Ledger {
            dir: dir.to_owned(),
            identity,
            command,
            known,
            known_from,
            previous: finished,
            wrote_any: std::sync::atomic::AtomicBool::new(false),
            made_from: Mutex::new(BTreeMap::new()),
            made: Mutex::new(None),
            written: Mutex::new(Vec::new()),
            journal: Mutex::new(file),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether `rel` is already on disk as an earlier run of this batch wrote it.
    pub fn is_current(&self, rel: &str) -> bool {
        let Some(sha) = self.known.get(rel) else {
            return false;
        };
        file_sha256(&self.dir.join(rel)).is_some_and(|s| &s == sha)
    }

    /// Whether `rel` is on disk with the sha256 `sha`, as an earlier run of this batch wrote it.
    pub fn is_current_as(&self, rel: &str, sha: &str) -> bool {
        self.known.get(rel).is_some_and(|k| k == sha) && self.is_current(rel)
    }

    /// The sha256 an earlier run of this batch recorded for `rel`.
    pub fn known_sha(&self, rel: &str) -> Option<&str> {
        self.known.get(rel).map(String::as_str)
    }

    /// Whether the combined file `rel` is on disk as an earlier run made it from the inputs described
    /// by `inputs` (see [`MadeFrom`]).
    pub fn is_current_from(&self, rel: &str, inputs: &str) -> bool {
        self.known_from
            .get(rel)
            .is_some_and(|m| m.inputs == inputs && self.is_current_as(rel, &m.sha256))
    }

    /// Note what the combined file `rel` (with sha256 `sha`) was made from, for the manifest.
    pub fn made_from(&self, rel: &str, inputs: String, sha: String) {
        self.made_from
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(
                rel.to_owned(),
                MadeFrom {
                    inputs,
                    sha256: sha,
                },
            );
    }

    /// Note that this run made every document of its batch as `made` says, for the manifest (see
    /// [`up_to_date`]).
    pub fn made_all(&self, made: Made) {
        *self.made.lock().unwrap_or_else(|e| e.into_inner()) = Some(made);
    }

    /// Whether an earlier run of this batch wrote `rel` (current or not).
    pub fn knows(&self, rel: &str) -> bool {
        self.known.contains_key(rel)
    }

    /// Keep a file that is current without rewriting it.
    pub fn keep(&self, rel: &str) {
        if let Some(sha) = self.known.get(rel).and_then(|s| unhex(s)) {
            self.lock_written().push((rel.into(), sha));
        }
    }

    /// Write `bytes` to `rel` atomically and journal it, unless an earlier run of this batch left exactly
    /// these bytes there: then the file is kept as it is (never rewritten, its time unchanged). Returns
    /// whether it was written, and its sha256.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(bool, String)> {
        let sha = sha256(bytes);
        if self.is_current_as(rel, &sha) {
            self.keep(rel);
            return Ok((false, sha));
        }
        let (_, sha) = super::output::Output::new(&self.dir)
            .write_hashed(rel, bytes)
            .map_err(|e| Error::io(self.dir.join(rel), e))?;
        self.record(rel, sha.clone())?;
        Ok((true, sha))
    }

    /// Journal a file that was written into place by other means (a merged PDF).
    pub fn record(&self, rel: &str, sha: String) -> Result<()> {
        self.wrote_any
            .store(true, std::sync::atomic::Ordering::Relaxed);
        {
            let mut j = self.journal.lock().unwrap_or_else(|e| e.into_inner());
            j.write_all(format!("{sha} {rel}\n").as_bytes())
                .map_err(|e| Error::io(self.dir.join(JOURNAL), e))?;
        }
        let bytes = unhex(&sha).ok_or_else(|| RenderError::Checksum { sha: sha.clone() })?;
        self.lock_written().push((rel.into(), bytes));
        Ok(())
    }

    fn lock_written(&self) -> std::sync::MutexGuard<'_, Vec<(Box<str>, [u8; 32])>> {
        self.written.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// How many files were written or kept so far.
    pub fn file_count(&self) -> usize {
        self.lock_written().len()
    }

    /// Write `manifest.json` (every file of this batch in the folder) and drop the journal. A run that
    /// wrote nothing and lists the same files as the finished run before it leaves that run's manifest
    /// as it is (it still names the command that last wrote here).
    pub fn finish(self) -> Result<()> {
        let written = std::mem::take(&mut *self.lock_written());
        let this_run = written
            .iter()
            .map(|(r, _)| &**r)
            .collect::<std::collections::BTreeSet<&str>>()
            .len();
        let mut files = self.known.clone();
        files.extend(
            written
                .into_iter()
                .map(|(rel, sha)| (rel.into_string(), hex(&sha))),
        );
        let mut made_from = self.known_from.clone();
        made_from.extend(std::mem::take(
            &mut *self.made_from.lock().unwrap_or_else(|e| e.into_inner()),
        ));
        // Only what is still listed: a combined file the run no longer makes is not described.
        made_from.retain(|rel, m| files.get(rel) == Some(&m.sha256));
        // Only when the folder lists exactly what this run made or kept (not also files of other formats
        // an earlier run of the batch left), so a run with nothing to do reports the same.
        let made = self
            .made
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .filter(|_| this_run == files.len());
        let path = self.dir.join(MANIFEST);
        let unchanged = !self.wrote_any.load(std::sync::atomic::Ordering::Relaxed)
            && self
                .previous
                .as_ref()
                .is_some_and(|p| p.files == files && p.made_from == made_from && p.made == made)
            && read_manifest(&self.dir).is_some_and(|m| m.files == files);
        if !unchanged {
            let m = Manifest {
                identity: self.identity.clone(),
                command: self.command.clone(),
                files,
                made_from,
                made,
            };
            let text =
                serde_json::to_string_pretty(&m).map_err(|e| Bug::json("the manifest", e))? + "\n";
            super::output::write_atomic(&path, text.as_bytes()).map_err(|e| Error::io(&path, e))?;
        }
        let _ = std::fs::remove_file(self.dir.join(JOURNAL));
        Ok(())
    }
}

fn describe(id: &Identity) -> String {
    let batch = id
        .batch
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| {
                    format!(
                        "{k} {}",
                        v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
        .unwrap_or_default();
    if batch.is_empty() {
        format!("`{}`", id.kind)
    } else {
        format!("`{}` with {batch}", id.kind)
    }
}

/// The sha256 (hex) of a file's bytes, read in pieces; `None` if it cannot be read.
fn file_sha256(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut f = std::fs::File::open(path).ok()?;
    let mut hash = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match f.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hash.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    Some(hex(&hash.finalize()))
}

fn read_manifest(dir: &Path) -> Option<Manifest> {
    let text = std::fs::read_to_string(dir.join(MANIFEST)).ok()?;
    serde_json::from_str(&text).ok()
}

/// The journal of a run that did not finish: its identity and the files it completed. A torn last line
/// (killed mid-write) is ignored.
fn read_journal(dir: &Path) -> Option<(Identity, BTreeMap<String, String>)> {
    let text = std::fs::read_to_string(dir.join(JOURNAL)).ok()?;
    let mut lines = text.lines();
    let identity: Identity = serde_json::from_str(lines.next()?).ok()?;
    let files = lines
        .filter_map(|l| {
            let (sha, rel) = l.split_once(' ')?;
            (sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()) && !rel.is_empty())
                .then(|| (rel.to_owned(), sha.to_owned()))
        })
        .collect();
    Some((identity, files))
}

/// A file in `dir` (recursively) whose name does not start with a dot.
fn first_visible_file(dir: &Path) -> Option<String> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let p = e.path();
        if p.is_dir() {
            if let Some(inner) = first_visible_file(&p) {
                return Some(format!("{name}/{inner}"));
            }
        } else {
            return Some(name);
        }
    }
    None
}

/// A `/`-separated relative path of plain names (no `..`, no root, nothing empty).
fn plain_relative(rel: &str) -> bool {
    !rel.is_empty()
        && Path::new(rel)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}
